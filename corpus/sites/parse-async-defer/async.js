// Runs whenever it arrives; may beat or trail the parser.
(function () {
  const end = performance.now() + 15;
  while (performance.now() < end) { /* spin */ }
  if (window.tcOrder) window.tcOrder('async.js');
  else document.addEventListener('DOMContentLoaded', () => window.tcOrder('async.js (late)'));
})();
