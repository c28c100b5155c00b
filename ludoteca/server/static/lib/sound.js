// Sounds, made here (Web Audio, no files): a move, a capture, the end of the game, low time.
// The switch is remembered in this browser; the last sound's name is kept on <body> for tests.
import { $ } from "/static/lib/dom.js";
import { t } from "/static/lib/i18n.js";

const KEY = "ludoteca:sound";
/** @type {Record<string, [number, number][]>} */
const SOUNDS = { move: [[520, 0.06]], capture: [[440, 0.07], [330, 0.09]],
                 end: [[523, 0.12], [659, 0.12], [784, 0.25]], low: [[880, 0.08], [880, 0.08]] };
/** @type {AudioContext | null} */
let audio = null;  // the page's audio context, made at the first sound

const soundOn = () => localStorage.getItem(KEY) !== "off";

/** @param {"move" | "capture" | "end" | "low"} name */
export function play(name) {
  document.body.dataset.lastSound = name;
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    let at = audio.currentTime;
    for (const [frequency, length] of SOUNDS[name]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + length);
      at += length;
    }
  } catch { /* no audio on this device */ }
}

function showSwitch() {
  const on = soundOn();
  $("sound").textContent = on ? t("Sound: on") : t("Sound: off");
  $("sound").setAttribute("aria-pressed", String(on));
}

// The page's sound switch (#sound): a click turns the sounds on or off, remembered here.
export function soundSwitch() {
  $("sound").onclick = () => {
    localStorage.setItem(KEY, soundOn() ? "off" : "on");
    showSwitch();
  };
  showSwitch();
}
