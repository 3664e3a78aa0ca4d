// Reads an Interleaved 2 of 5 barcode back from the SVG bwip-js draws (vertical strokes per path), the way a
// scanner reads bars: widths of alternating bars and spaces, narrow = 1, wide = 3. No path aliases: the
// browser tests import it too.

const DIGITS: Record<string, string> = {
  NNWWN: "0", WNNNW: "1", NWNNW: "2", WWNNN: "3", NNWNW: "4", WNWNN: "5", NWWNN: "6", NNNWW: "7", WNNWN: "8", NWNWN: "9",
};

/** Widths of alternating bars and spaces, bar first. */
export function barWidths(svg: string): number[] {
  const width = Number(/viewBox="0 0 (\d+) /.exec(svg)?.[1]);
  if (!Number.isInteger(width)) throw new Error("Not a bwip-js SVG");
  const dark = new Array<boolean>(width).fill(false);
  for (const path of svg.matchAll(/stroke-width="([\d.]+)" d="([^"]+)"/g)) {
    const stroke = Number(path[1]);
    for (const move of path[2]!.matchAll(/M([\d.]+) /g)) {
      for (let x = Math.round(Number(move[1]) - stroke / 2); x < Math.round(Number(move[1]) + stroke / 2); x++) dark[x] = true;
    }
  }
  const widths: number[] = [];
  let current = dark[0];
  let length = 0;
  for (const d of dark) {
    if (d === current) length++;
    else {
      widths.push(length);
      current = d;
      length = 1;
    }
  }
  widths.push(length);
  return widths;
}

/** The digits, or an Error naming what is wrong (start/stop pattern, a width, an unknown symbol). */
export function decodeI2of5(widths: number[]): string {
  const narrow = Math.min(...widths);
  const symbol = widths.map((w) => (w === narrow ? "N" : w === 3 * narrow ? "W" : "?"));
  if (symbol.includes("?")) throw new Error("A width is neither narrow nor 3 × narrow");
  if (symbol.slice(0, 4).join("") !== "NNNN") throw new Error("No start pattern");
  if (symbol.slice(-3).join("") !== "WNN") throw new Error("No stop pattern");
  const body = symbol.slice(4, -3);
  if (body.length % 10 !== 0) throw new Error("The body is not whole digit pairs");
  let digits = "";
  for (let i = 0; i < body.length; i += 10) {
    const pair = body.slice(i, i + 10);
    for (const parity of [0, 1]) {
      const digit = DIGITS[pair.filter((_, k) => k % 2 === parity).join("")];
      if (digit === undefined) throw new Error(`Unknown symbol at pair ${i / 10}`);
      digits += digit;
    }
  }
  return digits;
}
