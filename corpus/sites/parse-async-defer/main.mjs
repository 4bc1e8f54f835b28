import { fib, label } from './util.mjs';

window.tcOrder('main.mjs: ' + label + ' fib(24) = ' + fib(24));
const { late } = await import('./late.mjs');
window.tcOrder(late());
