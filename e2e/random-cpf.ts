/** A valid CPF nobody else uses (random base, real check digits), for the browser tests' customers. */
export function randomCpf(): string {
  const d = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  for (let n = 9; n < 11; n++) d.push((d.reduce((s, x, i) => s + x * (n + 1 - i), 0) * 10) % 11 % 10);
  return d.join("");
}
