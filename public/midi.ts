/**
 * "Send to synth": a rendering's MIDI Tuning Standard bulk dump (.syx), as the API serves it, sent
 * to an output the browser's Web MIDI grants. A system-exclusive message needs the listener's
 * permission (sysex: true), asked on the first click, never on load; a browser without Web MIDI
 * shows no control at all.
 */
import { el, errorText } from "./dom.js";
import { fill, t } from "./i18n.js";

/** One system-exclusive message, whole: what a bulk tuning dump is. */
export const isSysex = (bytes: Uint8Array): boolean =>
  bytes.length > 2 && bytes[0] === 0xf0 && bytes[bytes.length - 1] === 0xf7 && !bytes.subarray(1, -1).some((b) => b > 0x7f);

/** The control that sends the dump at syxUrl, or undefined where the browser has no Web MIDI. */
export function midiSender(syxUrl: string): HTMLElement | undefined {
  if (typeof navigator.requestMIDIAccess !== "function") return undefined;
  const outputs = el("select", "", { id: "midi-output", name: "midi-output" });
  const chooser = el("label", "", { for: outputs.id, hidden: "" }, el("span", t.midiOutput), outputs);
  const button = el("button", t.midiConnect, { type: "button", id: "midi-send" });
  const status = el("p", "", { class: "hint", role: "status", id: "midi-status" });
  let access: MIDIAccess | undefined;

  const listOutputs = (midi: MIDIAccess) => {
    const chosen = outputs.value;
    outputs.replaceChildren(...[...midi.outputs.values()].map((o) => new Option(o.name || o.id, o.id, false, o.id === chosen)));
    chooser.hidden = outputs.options.length === 0;
    button.textContent = outputs.options.length === 0 ? t.midiConnect : t.midiSend;
    status.textContent = outputs.options.length === 0 ? t.midiNone : "";
  };

  const send = async (midi: MIDIAccess) => {
    const output = midi.outputs.get(outputs.value);
    if (!output) {
      status.textContent = t.midiNone;
      return;
    }
    const r = await fetch(syxUrl);
    if (!r.ok) throw new Error(`${r.status} ${r.statusText}`.trim());
    const bytes = new Uint8Array(await r.arrayBuffer());
    if (!isSysex(bytes)) throw new Error(t.midiNotSysex);
    output.send(bytes);
    status.textContent = fill(t.midiSent, { bytes: bytes.length, output: output.name || output.id });
  };

  button.addEventListener("click", async () => {
    try {
      if (!access || outputs.options.length === 0) {
        access = await navigator.requestMIDIAccess({ sysex: true });
        const granted = access;
        granted.onstatechange = () => listOutputs(granted);
        listOutputs(granted);
        return;
      }
      await send(access);
    } catch (e) {
      status.textContent = fill(t.midiFailed, { message: errorText(e) });
    }
  });
  return el("div", "", { class: "midi" }, chooser, button, status);
}
