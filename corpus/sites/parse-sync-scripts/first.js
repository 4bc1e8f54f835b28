// Busy for 20 ms so the script's evaluation is visible in the trace.
(function () {
  const end = performance.now() + 20;
  let n = 0;
  while (performance.now() < end) n++;
  window.tcNote('first.js spun ' + n + ' times');
})();
