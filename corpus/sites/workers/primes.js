// Counts primes in chunks, posting a message after each chunk.
function countPrimes(from, to) {
  let n = 0;
  for (let i = Math.max(from, 2); i < to; i++) {
    let prime = true;
    for (let d = 2; d * d <= i; d++) if (i % d === 0) { prime = false; break; }
    if (prime) n++;
  }
  return n;
}
onmessage = e => {
  const { limit, chunks } = e.data;
  const size = limit / chunks;
  let k = 0;
  const step = () => {
    postMessage('chunk ' + k + ': ' + countPrimes(k * size, (k + 1) * size) + ' primes');
    if (++k < chunks) setTimeout(step, 100);
  };
  step();
};
