// Fetches and decodes an image off the main thread, then transfers the bitmap.
onmessage = async e => {
  const blob = await (await fetch(e.data)).blob();
  const bitmap = await createImageBitmap(blob);
  postMessage(bitmap, [bitmap]);
};
