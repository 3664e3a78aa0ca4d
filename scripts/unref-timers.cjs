// Preloaded into Prisma CLI runs: the WASM schema engine leaves a 10 s timer behind that keeps the
// process alive after its work is done. Unref long timers so the CLI exits when it is finished.
const original = global.setTimeout;
global.setTimeout = function patchedSetTimeout(fn, ms, ...args) {
  const t = original(fn, ms, ...args);
  if (typeof ms === "number" && ms >= 1000 && t && typeof t.unref === "function") t.unref();
  return t;
};
