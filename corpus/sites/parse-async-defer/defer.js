// Runs after parsing, before DOMContentLoaded.
window.tcOrder('defer.js');
document.addEventListener('DOMContentLoaded', () => window.tcOrder('DOMContentLoaded'));
