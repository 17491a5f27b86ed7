// A short wooden "clack" for each stone, synthesised with WebAudio (no audio files).
let ctx = null;

export function playStone(color = 1) {
  try {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    ctx = ctx || new AC();
    if (ctx.state === "suspended") ctx.resume();
    const now = ctx.currentTime;
    // a click: a burst of filtered noise...
    const len = Math.floor(ctx.sampleRate * 0.05);
    const buf = ctx.createBuffer(1, len, ctx.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
    const noise = ctx.createBufferSource();
    noise.buffer = buf;
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = color === 1 ? 1800 : 2300;
    band.Q.value = 1.2;
    const ng = ctx.createGain();
    ng.gain.value = 0.5;
    noise.connect(band).connect(ng).connect(ctx.destination);
    // ...over a short low knock
    const osc = ctx.createOscillator();
    osc.type = "sine";
    osc.frequency.setValueAtTime(color === 1 ? 190 : 230, now);
    osc.frequency.exponentialRampToValueAtTime(90, now + 0.08);
    const og = ctx.createGain();
    og.gain.setValueAtTime(0.35, now);
    og.gain.exponentialRampToValueAtTime(0.001, now + 0.1);
    osc.connect(og).connect(ctx.destination);
    noise.start(now);
    osc.start(now);
    osc.stop(now + 0.11);
  } catch { /* sound is optional */ }
}
