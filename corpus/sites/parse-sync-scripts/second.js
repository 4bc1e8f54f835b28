// Builds DOM while the parser waits.
(function () {
  const frag = document.createDocumentFragment();
  for (let i = 0; i < 200; i++) {
    const p = document.createElement('p');
    p.textContent = 'paragraph ' + i + ' written by second.js';
    frag.appendChild(p);
  }
  document.body.appendChild(frag);
  window.tcNote('second.js added 200 paragraphs');
})();
