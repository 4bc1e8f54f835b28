// Runs in <head>, before <body> exists: defines the helper the others use.
window.tcNote = function (text) {
  const li = document.createElement('li');
  li.textContent = text + ' at ' + performance.now().toFixed(1) + ' ms';
  document.getElementById('log').appendChild(li);
};
