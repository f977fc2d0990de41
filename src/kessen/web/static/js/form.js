// A form generated from a procedure's input JSON Schema: nested objects, lists of objects with add and remove,
// enums, booleans, integer bounds, nullable fields, each field with its label and description.
// The form holds the whole input (defaults filled); `body()` is what is sent: fields equal to their default left out.

import { element } from "./dom.js";
import { t, valueWord } from "./words.js";

let nextId = 0;

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function same(x, y) {
  return JSON.stringify(x) === JSON.stringify(y);
}

// The parts of a schema the form needs, $ref followed and "X or null" unwrapped.
export class SchemaReader {
  constructor(root) {
    this.root = root;
  }

  resolve(node) {
    while (node && typeof node.$ref === "string") node = this.root.$defs[node.$ref.split("/").pop()];
    return node || {};
  }

  // {node, nullable}: the schema of the value when it is not null.
  unwrap(node) {
    node = this.resolve(node);
    if (Array.isArray(node.anyOf)) {
      const others = node.anyOf.filter((member) => member.type !== "null");
      if (others.length === 1 && others.length < node.anyOf.length) {
        return { node: { ...this.resolve(others[0]), default: node.default }, nullable: true };
      }
    }
    return { node, nullable: false };
  }

  kind(node) {
    if (Array.isArray(node.enum)) return "enum";
    if (node.type === "array") return "array";
    if (node.type === "object" || node.properties) return "object";
    return node.type || "string";
  }

  // A value for a required field that has no default.
  blank(schema, name = "", siblings = 0) {
    const { node, nullable } = this.unwrap(schema);
    if (nullable) return null;
    switch (this.kind(node)) {
      case "enum":
        return node.enum[0];
      case "integer":
        return Math.min(node.maximum ?? 1, Math.max(node.minimum ?? 0, 1));
      case "boolean":
        return false;
      case "array":
        if (Array.isArray(node.prefixItems)) return node.prefixItems.map((item) => this.blank(item));
        return Array.from({ length: node.minItems || 0 }, (_, i) => this.blank(node.items || {}, "", i));
      case "object":
        return this.filled(node, {});
      default:
        return name === "id" ? `m${siblings + 1}` : "";
    }
  }

  // The value with every missing field filled: its default, or a blank for a required one.
  filled(schema, value) {
    const { node } = this.unwrap(schema);
    const kind = this.kind(node);
    if (kind === "object") {
      const result = {};
      const given = value && typeof value === "object" && !Array.isArray(value) ? value : {};
      const required = new Set(node.required || []);
      for (const [name, child] of Object.entries(node.properties || {})) {
        let own = given[name];
        if (own === undefined) own = "default" in child ? clone(child.default) : required.has(name) ? this.blank(child, name) : undefined;
        result[name] = own === undefined ? undefined : this.filled(child, own);
      }
      return result;
    }
    if (kind === "array" && Array.isArray(value) && node.items) return value.map((item) => this.filled(node.items, item));
    return value;
  }

  // The value as sent: optional fields equal to their default left out, lists and objects pruned inside.
  pruned(schema, value) {
    const { node } = this.unwrap(schema);
    const kind = this.kind(node);
    if (kind === "object" && value && typeof value === "object" && !Array.isArray(value)) {
      const result = {};
      const required = new Set(node.required || []);
      for (const [name, child] of Object.entries(node.properties || {})) {
        const own = value[name];
        if (own === undefined) continue;
        const childDefault = this.resolve(child).default;
        if (!required.has(name) && "default" in this.resolve(child) && same(own, childDefault)) continue;
        result[name] = this.pruned(child, own);
      }
      return result;
    }
    if (kind === "array" && Array.isArray(value) && node.items) return value.map((item) => this.pruned(node.items, item));
    return value;
  }
}

// A new list entry: a copy of the last one (a player adds "another like that"), with a fresh id; or a blank one.
function newEntry(reader, arrayNode, list) {
  if (!list.length) return reader.filled(arrayNode.items || {}, reader.blank(arrayNode.items || {}));
  const entry = clone(list[list.length - 1]);
  if (entry && typeof entry === "object" && !Array.isArray(entry) && typeof entry.id === "string") {
    const taken = new Set(list.map((item) => item.id));
    const stem = entry.id.replace(/\d+$/, "") || "m";
    let n = list.length + 1;
    while (taken.has(`${stem}${n}`)) n += 1;
    entry.id = `${stem}${n}`;
  }
  return entry;
}

export class SchemaForm {
  // schema: the input's JSON Schema; fields: path → {label, description}; words: value words; onChange(body).
  constructor({ schema, fields, words, value, onChange, name }) {
    this.reader = new SchemaReader(schema);
    this.schema = schema;
    this.fields = fields;
    this.words = words;
    this.onChange = onChange;
    this.value = this.reader.filled(schema, value || {});
    this.element = element("div", { class: "schema-form", "data-form": name });
    this.render();
  }

  body() {
    return this.reader.pruned(this.schema, this.value);
  }

  setValue(value) {
    this.value = this.reader.filled(this.schema, value || {});
    this.render();
  }

  render() {
    this.element.replaceChildren(this.objectFields(this.schema, this.value, "", ""));
  }

  changed() {
    this.onChange(this.body());
  }

  text(labelPath) {
    return this.fields[labelPath] || { label: labelPath.split(".").pop().replace("[]", ""), description: "" };
  }

  // labelPath names list entries with [] (the catalogue's key); dataPath with their index (for tests and focus).
  objectFields(schema, holder, labelPrefix, dataPrefix) {
    const node = this.reader.resolve(schema);
    const group = element("div", { class: "fields" });
    const required = new Set(node.required || []);
    for (const [name, child] of Object.entries(node.properties || {})) {
      group.append(this.field(child, holder, name, `${labelPrefix}${name}`, `${dataPrefix}${name}`, required.has(name)));
    }
    return group;
  }

  field(schema, holder, key, labelPath, dataPath, required) {
    const { node, nullable } = this.reader.unwrap(schema);
    const kind = this.reader.kind(node);
    const { label, description } = this.text(labelPath);
    const id = `f${(nextId += 1)}`;
    const get = () => holder[key];
    const set = (value) => {
      holder[key] = value;
      this.changed();
    };
    const wrapper = element("div", { class: `field field-${kind}`, "data-path": dataPath });
    const heading = element(
      "div",
      { class: "field-head" },
      element("label", { for: id, text: label }),
      bounds(node, nullable) ? element("span", { class: "bounds", text: bounds(node, nullable) }) : null,
      required ? null : element("span", { class: "default", text: defaultHint(node, nullable, this.words, key) }),
    );
    let control;
    if (kind === "object") {
      control = element("fieldset", { class: "nested", id }, this.objectFields(node, get(), `${labelPath}.`, `${dataPath}.`));
    } else if (kind === "array") {
      control = this.list(node, holder, key, labelPath, dataPath, id);
    } else {
      control = this.scalar(node, nullable, get, set, id, key);
    }
    if (kind === "boolean") {
      wrapper.append(element("div", { class: "check-row" }, control, heading));
    } else {
      wrapper.append(heading, control);
    }
    if (description) wrapper.append(element("p", { class: "desc", text: description }));
    return wrapper;
  }

  scalar(node, nullable, get, set, id, key) {
    const kind = this.reader.kind(node);
    const current = get();
    if (kind === "boolean") {
      const box = element("input", { type: "checkbox", id, checked: current === true });
      box.addEventListener("change", () => set(box.checked));
      return box;
    }
    if (kind === "enum") {
      const select = element("select", { id });
      const choices = nullable ? [null, ...node.enum] : node.enum;
      choices.forEach((choice, index) => {
        select.append(element("option", { value: String(index), selected: same(choice, current), text: valueWord(this.words, key, choice) }));
      });
      select.addEventListener("change", () => set(choices[Number(select.value)]));
      return select;
    }
    const numeric = kind === "integer" || kind === "number";
    const input = element("input", {
      id,
      type: numeric ? "number" : "text",
      inputmode: kind === "integer" ? "numeric" : undefined,
      step: kind === "integer" ? 1 : undefined,
      min: node.minimum,
      max: node.maximum,
      maxlength: node.maxLength,
      placeholder: nullable ? t("empty_is_none") : undefined,
      spellcheck: numeric ? undefined : "false",
      autocomplete: "off",
    });
    input.value = current === null || current === undefined ? "" : String(current);
    input.addEventListener("input", () => {
      const raw = input.value.trim();
      if (raw === "") set(nullable ? null : undefined);
      else if (numeric) set(Number.isFinite(Number(raw)) ? Number(raw) : raw);
      else set(input.value);
    });
    return input;
  }

  list(node, holder, key, labelPath, dataPath, id) {
    const box = element("div", { class: "list", id });
    const itemNode = node.items ? this.reader.unwrap(node.items).node : null;
    // A list of enum values without repeats is a set of checkboxes.
    if (itemNode && this.reader.kind(itemNode) === "enum") {
      for (const choice of itemNode.enum) {
        const check = element("input", { type: "checkbox", checked: (holder[key] || []).includes(choice) });
        check.addEventListener("change", () => {
          holder[key] = itemNode.enum.filter((v) => (v === choice ? check.checked : (holder[key] || []).includes(v)));
          this.changed();
        });
        box.append(element("label", { class: "choice" }, check, valueWord(this.words, key, choice)));
      }
      return box;
    }
    const redraw = () => {
      const list = holder[key] || (holder[key] = []);
      const entries = list.map((entry, index) => this.entry(node, list, index, labelPath, `${dataPath}[${index}]`, redraw));
      const add = element("button", { type: "button", class: "add", "data-action": "add", text: `+ ${t("add")}`, disabled: node.maxItems !== undefined && list.length >= node.maxItems });
      add.addEventListener("click", () => {
        list.push(newEntry(this.reader, node, list));
        redraw();
        this.changed();
      });
      box.replaceChildren(...entries, add);
    };
    redraw();
    return box;
  }

  entry(node, list, index, labelPath, dataPath, redraw) {
    const remove = element("button", { type: "button", class: "remove", "data-action": "remove", title: t("remove"), "aria-label": t("remove"), text: "×", disabled: list.length <= (node.minItems || 0) });
    remove.addEventListener("click", () => {
      list.splice(index, 1);
      redraw();
      this.changed();
    });
    const row = element("div", { class: "entry", "data-path": dataPath }, element("span", { class: "entry-number", text: String(index + 1) }));
    const setter = (value) => {
      list[index] = value;
      this.changed();
    };
    const { node: itemNode, nullable } = this.reader.unwrap(node.items || {});
    if (Array.isArray(itemNode.prefixItems)) {
      const tuple = element("div", { class: "tuple" });
      itemNode.prefixItems.forEach((itemSchema, position) => {
        const { node: part, nullable } = this.reader.unwrap(itemSchema);
        tuple.append(this.scalar(part, nullable, () => list[index][position], (value) => { list[index][position] = value; this.changed(); }, `f${(nextId += 1)}`, ""));
      });
      row.append(tuple);
    } else {
      if (this.reader.kind(itemNode) === "object") {
        row.classList.add("entry-object");
        row.append(this.objectFields(itemNode, list[index], `${labelPath}[].`, `${dataPath}.`));
      } else {
        row.append(this.scalar(itemNode, nullable, () => list[index], setter, `f${(nextId += 1)}`, ""));
      }
    }
    row.append(remove);
    return row;
  }
}

function bounds(node, nullable) {
  const low = node.minimum;
  const high = node.maximum;
  let text = "";
  if (low !== undefined && high !== undefined) text = `${low}–${high}`;
  else if (low !== undefined) text = `≥ ${low}`;
  else if (high !== undefined) text = `≤ ${high}`;
  if (node.type === "array" && (node.minItems !== undefined || node.maxItems !== undefined)) {
    text = node.maxItems === undefined ? t("entries_at_least", { min: node.minItems ?? 0 }) : t("entries", { min: node.minItems ?? 0, max: node.maxItems });
  }
  return text;
}

function defaultHint(node, nullable, words, key) {
  if (!("default" in node)) return "";
  const value = node.default;
  if (Array.isArray(value)) return value.length ? "" : t("default_value", { value: t("default_empty") });
  if (value === null) return t("default_value", { value: t("none_value") });
  return t("default_value", { value: valueWord(words, key, value) });
}
