// The battle report beside the board: one line per event, narrated by the server in the match's language.

import { element } from "./dom.js";

export class EventLog {
  // onPick(n) hears a click on the line of event n (the viewer jumps there).
  constructor({ onPick = null, label }) {
    this.list = element("ol", { class: "event-log", "aria-label": label, "aria-live": "polite" });
    this.onPick = onPick;
    this.count = 0;
    if (onPick) {
      this.list.addEventListener("click", (event) => {
        const line = event.target.closest("li[data-event]");
        if (line) onPick(Number(line.dataset.event));
      });
    }
  }

  // Show *events*; lines from *fresh* on are marked new (what happened since the person's last decision).
  set(events, { fresh = events.length } = {}) {
    this.list.replaceChildren(
      ...events.map((event, index) =>
        element("li", { "data-event": index, "data-type": event.type, class: index >= fresh ? "fresh" : null, text: event.text }),
      ),
    );
    this.count = events.length;
    this.reveal(this.list.lastElementChild);
  }

  // Mark the first *shown* events as told and the last of them as the current one (the viewer's position).
  mark(shown) {
    const lines = this.list.children;
    for (let i = 0; i < lines.length; i += 1) {
      lines[i].classList.toggle("told", i < shown);
      lines[i].classList.toggle("current", i === shown - 1);
    }
    this.reveal(lines[shown - 1] || lines[0]);
  }

  // Scroll the list (never the page) so that *line* is in view.
  reveal(line) {
    if (!line) return;
    const top = line.offsetTop;
    const { scrollTop, clientHeight } = this.list;
    if (top < scrollTop || top + line.offsetHeight > scrollTop + clientHeight) this.list.scrollTop = Math.max(0, top - clientHeight / 2);
  }
}
