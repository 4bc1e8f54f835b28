export function late() {
  return 'late.mjs imported dynamically';
}
