import { seeded } from './rand.mjs';

// Sorts a large array of pseudo-random numbers twice.
onmessage = e => {
  const rnd = seeded(7);
  const a = Float64Array.from({ length: e.data }, rnd);
  const t0 = performance.now();
  a.sort();
  const b = Array.from(a, x => -x).sort((x, y) => x - y);
  postMessage('sorted ' + a.length + ' and ' + b.length + ' in ' + (performance.now() - t0).toFixed(0) + ' ms');
};
