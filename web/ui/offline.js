// Registers the service worker (sw.js) that makes the site work offline, once the engine
// has loaded (so that filling the cache does not slow down the first start).
// onUpdate() is called when a newer version took over a page that an older one controlled.
// Only the first call registers (the engine may become ready again after a restart).
let registered = false;

export function registerOffline({ onUpdate = () => {}, onReady = () => {} } = {}) {
  if (registered) return;
  registered = true;
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const hadController = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (hadController) onUpdate();
    else onReady();
  });
  navigator.serviceWorker.register("sw.js").catch((err) => {
    console.warn("service worker not registered:", String(err && err.message || err));
  });
}
