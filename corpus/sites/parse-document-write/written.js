// Loaded through document.write; writes again while it runs.
document.write('<ul>');
for (let i = 0; i < 50; i++) document.write('<li>item ' + i + ' from written.js</li>');
document.write('</ul>');
