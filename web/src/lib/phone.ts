/**
 * Contact numbers are stored as digits with the country code (`normalizeNumber`); these helpers only
 * change how one reads: "5215512345678" shows as "+52 1 55 1234 5678". Nothing is sent back formatted.
 */

// ITU country codes of one and two digits; every other code has three.
const ONE_DIGIT = new Set(["1", "7"]);
const TWO_DIGITS = new Set(
  "20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98".split(
    " ",
  ),
);

// Local grouping by country and national length, for the countries the product mostly serves.
const PATTERNS: Record<string, Record<number, number[]>> = {
  "1": { 10: [3, 3, 4] },
  "34": { 9: [3, 3, 3] },
  "51": { 9: [3, 3, 3] },
  "52": { 10: [2, 4, 4], 11: [1, 2, 4, 4] },
  "54": { 10: [2, 4, 4], 11: [1, 2, 4, 4] },
  "55": { 10: [2, 4, 4], 11: [2, 5, 4] },
  "56": { 9: [1, 4, 4] },
  "57": { 10: [3, 3, 4] },
  "58": { 10: [3, 3, 4] },
  "351": { 9: [3, 3, 3] },
  "593": { 9: [2, 3, 4] },
};

const E164_MIN = 8;
const E164_MAX = 15;

function countryCodeOf(digits: string): string {
  if (ONE_DIGIT.has(digits.slice(0, 1))) return digits.slice(0, 1);
  if (TWO_DIGITS.has(digits.slice(0, 2))) return digits.slice(0, 2);
  return digits.slice(0, 3);
}

function split(digits: string, sizes: number[]): string[] {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) {
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts;
}

/** Elsewhere: the last four digits together, the rest in threes from the right. */
function genericGroups(digits: string): string[] {
  if (digits.length <= 4) return [digits];
  const parts = [digits.slice(-4)];
  let rest = digits.slice(0, -4);
  while (rest.length > 3) {
    parts.unshift(rest.slice(-3));
    rest = rest.slice(0, -3);
  }
  if (rest) parts.unshift(rest);
  return parts;
}

/** A stored number for reading; anything that is not a plausible international number is shown as is. */
export function formatPhoneNumber(number: string): string {
  if (!/^\d+$/.test(number) || number.length < E164_MIN || number.length > E164_MAX) return number;
  const code = countryCodeOf(number);
  const national = number.slice(code.length);
  const sizes = PATTERNS[code]?.[national.length];
  const groups = sizes ? split(national, sizes) : genericGroups(national);
  return `+${code} ${groups.join(" ")}`;
}
