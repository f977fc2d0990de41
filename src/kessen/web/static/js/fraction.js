// Exact fractions of BigInt numerator and denominator: the contract's "num/den" probabilities, added exactly.

function gcd(a, b) {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

export class Fraction {
  constructor(num, den = 1n) {
    if (den === 0n) throw new RangeError("zero denominator");
    if (den < 0n) [num, den] = [-num, -den];
    const g = gcd(num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
  }

  static parse(text) {
    const match = /^(-?\d+)\/(\d+)$/.exec(String(text));
    if (!match) throw new SyntaxError(`not a fraction: ${text}`);
    return new Fraction(BigInt(match[1]), BigInt(match[2]));
  }

  static of(value) {
    return new Fraction(BigInt(value), 1n);
  }

  add(other) {
    return new Fraction(this.num * other.den + other.num * this.den, this.den * other.den);
  }

  sub(other) {
    return new Fraction(this.num * other.den - other.num * this.den, this.den * other.den);
  }

  mul(other) {
    return new Fraction(this.num * other.num, this.den * other.den);
  }

  isZero() {
    return this.num === 0n;
  }

  // The nearest double, also for numerators and denominators beyond the range of a double.
  toNumber() {
    const shift = BigInt(Math.max(0, Math.max(this.num.toString(2).length, this.den.toString(2).length) - 1000));
    return Number(this.num >> shift) / Number(this.den >> shift);
  }

  toString() {
    return `${this.num}/${this.den}`;
  }
}

export const ZERO = new Fraction(0n);
export const ONE = new Fraction(1n);

// A probability as a percentage with two decimals ("8.33%"); tiny non-zero ones say so ("<0.01%").
export function percent(fraction) {
  const value = fraction.toNumber() * 100;
  if (value > 0 && value < 0.005) return "<0.01%";
  if (value < 100 && value > 99.995) return ">99.99%";
  return `${value.toFixed(2)}%`;
}
