// Fills the table the parser has already built.
(function () {
  const t = document.getElementById('t');
  for (let r = 0; r < 50; r++) {
    const row = t.insertRow();
    for (let c = 0; c < 6; c++) row.insertCell().textContent = r * c;
  }
  window.tcNote('third.js filled the table');
})();
