/** Plays rows of frequencies one after the other (ascending, then descending) with Web Audio. */
const NOTE_SECONDS = 0.5;

let context: AudioContext | undefined;

export function play(rows: number[][]): void {
  context ??= new AudioContext();
  const ctx = context;
  let t = ctx.currentTime + 0.05;
  for (const frequency of rows.flat()) {
    if (!(frequency > 0)) continue;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.value = frequency;
    // A short attack and release: no clicks between notes.
    gain.gain.setValueAtTime(0, t);
    gain.gain.linearRampToValueAtTime(0.3, t + 0.02);
    gain.gain.setValueAtTime(0.3, t + NOTE_SECONDS - 0.08);
    gain.gain.linearRampToValueAtTime(0, t + NOTE_SECONDS - 0.01);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + NOTE_SECONDS);
    t += NOTE_SECONDS;
  }
}
