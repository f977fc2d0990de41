// Display statistics of an odds result: the distribution of one outcome field, its mean and standard deviation.
// These only add up the exact probabilities the server gave; no rule is computed here.

import { Fraction, ZERO, ONE } from "./fraction.js";

export function isNumeric(value) {
  return typeof value === "number" && Number.isInteger(value);
}

// The kind of an outcome field over all outcomes: "numeric", "boolean" or "category".
export function fieldKind(outcomes, field) {
  const values = outcomes.map((row) => row.outcome[field]);
  if (values.every(isNumeric)) return "numeric";
  if (values.every((v) => typeof v === "boolean")) return "boolean";
  return "category";
}

export function withFractions(outcomes) {
  return outcomes.map((row) => ({ outcome: row.outcome, p: Fraction.parse(row.probability) }));
}

// [{value, p, atLeast}] for every value of the field, sorted (numbers ascending, false before true).
export function marginal(rows, field) {
  const byValue = new Map();
  for (const row of rows) {
    const key = JSON.stringify(row.outcome[field]);
    byValue.set(key, (byValue.get(key) || ZERO).add(row.p));
  }
  const entries = [...byValue].map(([key, p]) => ({ value: JSON.parse(key), p }));
  entries.sort((x, y) => compareValues(x.value, y.value));
  let atLeast = ONE;
  for (const entry of entries) {
    entry.atLeast = atLeast;
    atLeast = atLeast.sub(entry.p);
  }
  return entries;
}

export function compareValues(x, y) {
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (typeof x === "boolean" && typeof y === "boolean") return Number(x) - Number(y);
  return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
}

// Mean (exact, and as a number) and standard deviation of a numeric field's distribution.
export function moments(entries) {
  let mean = ZERO;
  let square = ZERO;
  for (const { value, p } of entries) {
    const x = Fraction.of(value);
    mean = mean.add(x.mul(p));
    square = square.add(x.mul(x).mul(p));
  }
  const variance = square.sub(mean.mul(mean));
  return { mean, meanNumber: mean.toNumber(), sd: Math.sqrt(Math.max(0, variance.toNumber())) };
}

// The probability that a field is true.
export function chanceTrue(rows, field) {
  return rows.reduce((sum, row) => (row.outcome[field] === true ? sum.add(row.p) : sum), ZERO);
}
