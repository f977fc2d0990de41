// The part of the board an SVG shows (its viewBox, in the board's page units) and the gestures that move it: the
// wheel and the + / − buttons zoom about a point, two fingers pinch, one finger or the mouse drags the table.
// Points go between the screen and the board through the SVG's own matrix, so the letterboxing of a frame whose
// shape is not the table's is counted too.

const MOST_ZOOM = { mm: 50, inch: 2, square: 3 }; // the narrowest view, in board units

export class Camera {
  constructor(svg, { width, height, units, pad }, onChange) {
    this.svg = svg;
    this.table = { width, height, pad };
    this.narrowest = MOST_ZOOM[units] || Math.min(width, height) / 20;
    this.onChange = onChange;
    this.view = this.whole();
  }

  whole() {
    const { width, height, pad } = this.table;
    return { x: -pad, y: -pad, w: width + 2 * pad, h: height + 2 * pad };
  }

  set(view) {
    const whole = this.whole();
    const w = Math.min(whole.w, Math.max(this.narrowest, view.w));
    const h = (view.h * w) / view.w;
    // never further off the table than half a view
    const x = Math.min(whole.x + whole.w - w / 2, Math.max(whole.x - w / 2, view.x));
    const y = Math.min(whole.y + whole.h - h / 2, Math.max(whole.y - h / 2, view.y));
    this.view = { x, y, w, h };
    this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    this.onChange();
  }

  // The box [x0, y0, x1, y1] (page units) in view, with a margin, at the frame's shape.
  fit([x0, y0, x1, y1], margin) {
    const box = this.svg.getBoundingClientRect();
    const aspect = box.width > 0 && box.height > 0 ? box.width / box.height : (this.table.width / this.table.height);
    let w = Math.max(x1 - x0 + 2 * margin, this.narrowest);
    let h = Math.max(y1 - y0 + 2 * margin, w / aspect);
    w = Math.max(w, h * aspect);
    this.set({ x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - h / 2, w, h: w / aspect });
  }

  // Pixels on the screen per board unit.
  scale() {
    const matrix = this.svg.getScreenCTM();
    return matrix ? matrix.a : 1;
  }

  toPage(clientX, clientY) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const at = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: at.x, y: at.y };
  }

  toClient(x, y) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const at = new DOMPoint(x, y).matrixTransform(matrix);
    return { x: at.x, y: at.y };
  }

  // Zoom by *factor* (> 1: closer) keeping the point under (clientX, clientY) where it is.
  zoomAt(factor, clientX, clientY) {
    const at = this.toPage(clientX, clientY);
    if (!at) return;
    const { x, y, w, h } = this.view;
    const nw = Math.min(this.whole().w, Math.max(this.narrowest, w / factor));
    const k = nw / w;
    this.set({ x: at.x - (at.x - x) * k, y: at.y - (at.y - y) * k, w: nw, h: h * k });
  }

  zoomCentre(factor) {
    const box = this.svg.getBoundingClientRect();
    this.zoomAt(factor, box.left + box.width / 2, box.top + box.height / 2);
  }

  panBy(dxPixels, dyPixels) {
    const s = this.scale();
    this.set({ ...this.view, x: this.view.x - dxPixels / s, y: this.view.y - dyPixels / s });
  }

  zoomed() {
    return this.view.w < this.whole().w * 0.999;
  }
}

// The gestures on a frame: onTap(clientX, clientY) for a press released where it started; onDrag(start, now,
// done) for a press that moved and began on something draggable (start.draggable); otherwise a drag pans and two
// fingers pinch. onHover(clientX, clientY) for the mouse moving with no button held.
export function listen(frame, camera, { draggable, onTap, onDrag, onHover }) {
  const pointers = new Map();
  let gesture = null;
  frame.addEventListener("wheel", (event) => {
    event.preventDefault();
    camera.zoomAt(Math.pow(1.0015, -event.deltaY), event.clientX, event.clientY);
  }, { passive: false });
  frame.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    frame.setPointerCapture?.(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 1) {
      gesture = { kind: "press", x: event.clientX, y: event.clientY, draggable: draggable(event.clientX, event.clientY) };
    } else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y) };
    }
  });
  frame.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) {
      if (event.pointerType === "mouse" && !event.buttons) onHover(event.clientX, event.clientY);
      return;
    }
    const last = pointers.get(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (!gesture) return;
    if (gesture.kind === "pinch" && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (gesture.distance > 0) camera.zoomAt(distance / gesture.distance, (a.x + b.x) / 2, (a.y + b.y) / 2);
      gesture.distance = distance;
      return;
    }
    if (gesture.kind === "press" && Math.hypot(event.clientX - gesture.x, event.clientY - gesture.y) > 6) {
      gesture.kind = gesture.draggable ? "drag" : "pan";
    }
    if (gesture.kind === "pan") camera.panBy(event.clientX - last.x, event.clientY - last.y);
    else if (gesture.kind === "drag") onDrag(gesture, { x: event.clientX, y: event.clientY }, false);
  });
  const end = (event, cancelled) => {
    if (!pointers.delete(event.pointerId)) return;
    if (gesture && !cancelled) {
      if (gesture.kind === "press") onTap(event.clientX, event.clientY);
      else if (gesture.kind === "drag") onDrag(gesture, { x: event.clientX, y: event.clientY }, true);
    } else if (gesture && gesture.kind === "drag") onDrag(gesture, null, true);
    gesture = pointers.size === 1 ? { kind: "pan" } : null;
  };
  frame.addEventListener("pointerup", (event) => end(event, false));
  frame.addEventListener("pointercancel", (event) => end(event, true));
}
