window.tcOrder('inserted.js');
