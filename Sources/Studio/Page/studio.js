// FrameDial Studio: the Camera Control overlay in a page. State changes go to the server over the /live
// WebSocket; the server renders the latest state only, at the size this page shows the viewfinder (the
// page tells it: the "view" message), and sends the frame back, one at a time: the next frame comes
// after the page says the last one is decoded. Frames come as raw RGBA pixels when the server runs on
// this machine (nothing to encode or decode), as JPEG otherwise. The WebSocket and the frames live in a
// worker of their own (frameWorker below): it decodes each frame (createImageBitmap for a JPEG) and
// draws the newest one decoded on the viewfinder's canvas (an OffscreenCanvas) in its next animation
// frame, so frames never wait for this page's main thread (its layout, painting and input). Plain
// script, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const studio = {
  config: null,
  state: {},
  labels: {},
  selected: null,
  worker: null, // the frame worker, which holds the /live WebSocket
  connected: false,
  seq: 0,
  sentAt: new Map(), // seq → input event time (performance.now clock)
  latencies: [],
  framesShown: 0, // frames the worker drew on the viewfinder's canvas
  frameSize: null, // { width, height } of the last frame drawn, in pixels
  viewSize: null, // the displayed viewfinder size last sent, in device pixels
  overlay: { visible: false, list: false, control: null }, // as the server's model says
  pressed: new Set(), // press kinds held down now
};

// --- Scales: value ↔ position (0 at the bottom, 1 at the top) ---

function toPosition(control, value) {
  const { minimum: min, maximum: max } = control.description;
  if (control.spacing === "logarithmic") return Math.log(value / min) / Math.log(max / min);
  if (control.spacing === "mired") return (1e6 / min - 1e6 / value) / (1e6 / min - 1e6 / max);
  return (value - min) / (max - min);
}

function fromPosition(control, position) {
  const { minimum: min, maximum: max, step } = control.description;
  const p = Math.min(1, Math.max(0, position));
  let value;
  if (control.spacing === "logarithmic") value = min * Math.pow(max / min, p);
  else if (control.spacing === "mired") value = 1e6 / (1e6 / min - p * (1e6 / min - 1e6 / max));
  else value = min + p * (max - min);
  if (step) value = min + Math.round((value - min) / step) * step;
  const digits = control.spacing === "mired" || max - min >= 100 ? 0 : 2;
  return Math.min(max, Math.max(min, Number(value.toFixed(digits))));
}

// --- The current value of a control in the state ---

function sliderValue(control) {
  const value = studio.state[control.jsonKey];
  if (control.name === "temperature") return typeof value === "number" ? value : 5500;
  return typeof value === "number" ? value : control.description.defaultValue;
}

function pickerIndex(control) {
  const options = control.description.options;
  const value = studio.state[control.jsonKey];
  if (control.name === "grid") return value ? 1 : 0;
  if (control.name === "white-balance") {
    if (typeof value === "number") return options.length - 1;
    if (value === "none") return 0;
  }
  const index = options.findIndex((o) => o.toLowerCase() === String(value).toLowerCase());
  return Math.max(0, index);
}

// --- Sending changes ---

// Sends a change (shown here at once) as `message`, a state message by default, numbered for the
// latency meter.
function send(change, event, message = { type: "state", state: change }) {
  studio.seq += 1;
  const at = event && event.timeStamp > 0 ? event.timeStamp : performance.now();
  studio.sentAt.set(studio.seq, at);
  Object.assign(studio.state, change);
  post({ ...message, seq: studio.seq });
  drawOverlay();
}

// Keys and the wheel set the value they step to. A drag is a user's slide: the server lands it as the
// Camera Control model does (on a step, a listed value, or a prominent value within reach) and sends
// the landed state back; the pointer's own position decides each move, so a drag leaves a prominent
// value once it goes past its reach.
function slideTo(control, value, event, drag = false) {
  if (value === sliderValue(control)) return;
  const change = { [control.jsonKey]: value };
  send(change, event, drag ? { type: "slide", control: control.name, value } : undefined);
}

function slideBy(control, positions, event) {
  const position = toPosition(control, sliderValue(control)) + positions;
  slideTo(control, fromPosition(control, position), event);
}

function selectOption(control, index, event) {
  const options = control.description.options;
  const chosen = Math.min(options.length - 1, Math.max(0, index));
  if (chosen === pickerIndex(control)) return;
  send({ [control.jsonKey]: control.name === "grid" ? chosen === 1 : options[chosen] }, event);
}

// --- Drawing ---

function place(element, rect) {
  const { width, height } = studio.config.screen;
  element.style.left = `${(100 * rect.x) / width}%`;
  element.style.top = `${(100 * rect.y) / height}%`;
  element.style.width = `${(100 * rect.width) / width}%`;
  element.style.height = `${(100 * rect.height) / height}%`;
}

function drawList() {
  const list = $("control-list");
  list.replaceChildren();
  for (const control of studio.config.controls) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.name = control.name;
    button.setAttribute("aria-pressed", String(control === studio.selected));
    const title = document.createElement("span");
    title.textContent = `${control.glyph ?? ""} ${control.description.title}`.trim();
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = studio.labels[control.name] ?? "";
    button.append(title, value);
    button.addEventListener("click", () => chooseFromList(control));
    item.append(button);
    list.append(item);
  }
}

function drawChoices() {
  const choices = $("choices");
  choices.replaceChildren(...studio.config.controls.map((control) => {
    const option = document.createElement("div");
    option.className = "option";
    option.setAttribute("role", "option");
    option.setAttribute("aria-selected", String(control === studio.selected));
    option.textContent = `${control.glyph ?? ""} ${control.description.title}`.trim();
    option.addEventListener("click", () => chooseFromList(control));
    return option;
  }));
}

function drawOverlay() {
  const control = studio.selected;
  if (!control) return;
  const listing = studio.overlay.list;
  $("overlay").classList.toggle("dismissed", !studio.overlay.visible);
  $("choices").hidden = !listing;
  if (listing) drawChoices();
  const d = control.description;
  $("overlay-symbol").textContent = control.glyph ?? "";
  $("overlay-title").textContent = d.title;
  $("overlay-value").textContent = studio.labels[control.name] ?? "";
  const slider = $("slider");
  const options = $("options");
  const isPicker = d.kind === "index-picker";
  slider.hidden = isPicker || listing;
  options.hidden = !isPicker || listing;
  if (isPicker) {
    const index = pickerIndex(control);
    options.replaceChildren(...d.options.map((title, i) => {
      const option = document.createElement("div");
      option.className = "option";
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", String(i === index));
      option.textContent = title;
      option.addEventListener("click", (event) => selectOption(control, i, event));
      return option;
    }));
    return;
  }
  const value = sliderValue(control);
  slider.setAttribute("aria-valuemin", String(d.minimum));
  slider.setAttribute("aria-valuemax", String(d.maximum));
  slider.setAttribute("aria-valuenow", String(value));
  slider.setAttribute("aria-valuetext", studio.labels[control.name] ?? String(value));
  $("thumb").style.bottom = `${100 * toPosition(control, value)}%`;
  $("marks").replaceChildren(...d.prominentValues.map((mark, i) => {
    const label = document.createElement("span");
    label.className = "mark";
    label.style.bottom = `${100 * toPosition(control, mark)}%`;
    label.textContent = d.prominentLabels[i];
    return label;
  }));
}

function drawLatency() {
  const sorted = [...studio.latencies].sort((a, b) => a - b);
  const rank = (p) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
  const ms = (v) => (v === undefined ? "–" : `${v.toFixed(1)} ms`);
  $("p50").textContent = ms(rank(50));
  $("p99").textContent = ms(rank(99));
  $("last").textContent = ms(studio.latencies[studio.latencies.length - 1]);
  $("samples").textContent = String(sorted.length);
}

function choose(control, focus) {
  studio.selected = control;
  drawList();
  drawOverlay();
  if (focus) (control.description.kind === "index-picker" ? $("options") : $("slider")).focus();
}

// Choosing a control (from the panel or the overlay's list) opens the overlay on it: the server's
// Camera Control model keeps what the overlay shows and remembers the last control used.
function chooseFromList(control) {
  post({ type: "choose", control: control.name });
  studio.overlay = { ...studio.overlay, visible: true, list: false, control: control.name };
  choose(control, true);
}

// --- The Camera Control: raw press phases go to the server, whose model tells single from double ---

function press(phase, kind) {
  if (phase === "began") {
    if (studio.pressed.has(kind)) return;
    studio.pressed.add(kind);
  } else {
    if (!studio.pressed.has(kind)) return;
    studio.pressed.delete(kind);
  }
  post({ type: "press", phase, kind });
}

function bindPressButton(button, kind) {
  button.addEventListener("pointerdown", (event) => {
    button.setPointerCapture(event.pointerId);
    press("began", kind);
  });
  button.addEventListener("pointerup", () => press("ended", kind));
  button.addEventListener("pointercancel", () => press("cancelled", kind));
  button.addEventListener("keydown", (event) => {
    if (event.key !== " " && event.key !== "Enter") return;
    event.preventDefault();
    if (!event.repeat) press("began", kind);
  });
  button.addEventListener("keyup", (event) => {
    if (event.key !== " " && event.key !== "Enter") return;
    event.preventDefault();
    press("ended", kind);
  });
}

// L: light press, P: full press, anywhere on the page (held keys are held presses).
const pressKeys = { l: "secondary", p: "primary" };

function onPressKey(event) {
  const kind = pressKeys[event.key.toLowerCase()];
  if (!kind || event.ctrlKey || event.metaKey || event.altKey) return;
  event.preventDefault();
  if (event.type === "keydown") {
    if (!event.repeat) press("began", kind);
  } else {
    press("ended", kind);
  }
}

function onChoiceKey(event) {
  const controls = studio.config.controls;
  const at = Math.max(0, controls.indexOf(studio.selected));
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    return chooseFromList(studio.selected);
  }
  const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
  if (!step) return;
  event.preventDefault();
  studio.selected = controls[Math.min(controls.length - 1, Math.max(0, at + step))];
  drawChoices();
}

function applyOverlay(overlay) {
  if (!overlay) return;
  const wasListing = studio.overlay.list;
  studio.overlay = overlay;
  const named = studio.config.controls.find((c) => c.name === overlay.control);
  if (named && !overlay.list) studio.selected = named;
  drawList();
  drawOverlay();
  if (overlay.list && !wasListing) $("choices").focus();
  // Dismissed (the idle timeout): the focus goes to the button that opens it again.
  if (!overlay.visible && $("overlay").contains(document.activeElement)) $("light-press").focus();
}

// --- Downloads: the capture, the look, the timeline ---

async function download(url, name, init) {
  const response = await fetch(url, init);
  if (!response.ok) {
    let message = `${url}: ${response.status}`;
    try { message = (await response.json()).error; } catch (_) { /* keep the status */ }
    $("status").textContent = message;
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

async function setRecording(recording) {
  const response = await fetch("/record", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ recording }),
  });
  const status = await response.json();
  if (!response.ok) return void ($("status").textContent = status.error);
  $("record").setAttribute("aria-pressed", String(status.recording));
  $("stop").disabled = !status.recording;
  const events = status.events === 1 ? "1 event" : `${status.events} events`;
  $("status").textContent = status.recording ? "Recording gestures…" : `Recorded ${events}.`;
  if (!status.recording) await download("/timeline.jsonl", "framedial-timeline.jsonl");
}

// --- Input: keys, wheel, drag ---

function onKey(event) {
  const control = studio.selected;
  if (!control) return;
  const up = event.key === "ArrowUp" || event.key === "ArrowRight";
  const down = event.key === "ArrowDown" || event.key === "ArrowLeft";
  if (!up && !down && event.key !== "Home" && event.key !== "End") return;
  event.preventDefault();
  if (control.description.kind === "index-picker") {
    // The options are listed top to bottom: down (or right) is the next one.
    const last = control.description.options.length - 1;
    const next = event.key === "ArrowDown" || event.key === "ArrowRight" ? 1 : -1;
    const index = event.key === "Home" ? 0 : event.key === "End" ? last : pickerIndex(control) + next;
    selectOption(control, index, event);
    return;
  }
  if (event.key === "Home") return slideTo(control, control.description.minimum, event);
  if (event.key === "End") return slideTo(control, control.description.maximum, event);
  slideBy(control, (up ? 1 : -1) * (event.shiftKey ? 0.1 : 0.01), event);
}

function onWheel(event) {
  const control = studio.selected;
  if (!control) return;
  event.preventDefault();
  const notches = Math.sign(-event.deltaY);
  if (control.description.kind === "index-picker") {
    selectOption(control, pickerIndex(control) - notches, event);
  } else {
    slideBy(control, notches * (event.shiftKey ? 0.1 : 0.01), event);
  }
}

function onDrag(event) {
  const control = studio.selected;
  if (!control || control.description.kind === "index-picker") return;
  if (event.type === "pointerdown") $("slider").setPointerCapture(event.pointerId);
  else if (!$("slider").hasPointerCapture(event.pointerId)) return;
  const box = $("slider").getBoundingClientRect();
  slideTo(control, fromPosition(control, (box.bottom - event.clientY) / box.height), event, true);
}

// --- Frames and the connection ---

// The viewfinder's displayed size in device pixels (CSS size × devicePixelRatio): the size the
// server renders frames at.
function viewSize() {
  const box = $("frame").getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  return {
    width: Math.max(1, Math.round(box.width * ratio)),
    height: Math.max(1, Math.round(box.height * ratio)),
  };
}

// Tells the server the displayed size: on connecting (`always`) and when it changes.
function sendViewSize(always) {
  const size = viewSize();
  const last = studio.viewSize;
  if (!always && last && last.width === size.width && last.height === size.height) return;
  studio.viewSize = size;
  // Raw frames: the server sends them only when it runs on this machine, JPEG otherwise.
  if (studio.connected) post({ type: "view", ...size, format: "rgba" });
}

// Draws decoded frames on a 2D canvas context in animation frames, newest wins: a frame decoded while
// another waits for its animation frame replaces it (and takes its seq: the newest frame shows every
// change an older one showed). `drawn` gets { seq, size, at } once a frame is drawn, `at` in ms since
// the epoch (the page's clock and a worker's differ). Used by the frame worker when it holds the
// viewfinder's canvas (an OffscreenCanvas), else by the page; its source goes into the worker too.
function framePainter(context, drawn) {
  let pending = null; // { image, seq }: an ImageData (raw RGBA) or an ImageBitmap (JPEG)

  function draw() {
    const { image, seq } = pending;
    pending = null;
    let size = null;
    if (image) {
      const canvas = context.canvas;
      if (canvas.width !== image.width || canvas.height !== image.height) {
        canvas.width = image.width;
        canvas.height = image.height;
      }
      if (image.close) {
        context.drawImage(image, 0, 0);
        image.close();
      } else {
        context.putImageData(image, 0, 0);
      }
      size = { width: image.width, height: image.height };
    }
    drawn({ seq, size, at: performance.timeOrigin + performance.now() });
  }

  // A decoded frame (image null when it did not decode: nothing new is drawn, the seq still counts).
  return function show(image, seq) {
    const waiting = pending;
    // A bitmap never drawn (a newer one came) is released.
    if (waiting && image && waiting.image && waiting.image.close) waiting.image.close();
    pending = {
      image: image ?? (waiting ? waiting.image : null),
      seq: seq ?? (waiting ? waiting.seq : null),
    };
    if (!waiting) requestAnimationFrame(draw);
  };
}

// The frame worker's script (its source text becomes a worker of its own; it shares nothing with this
// page but messages). It holds the /live WebSocket: text messages from the server go to the page,
// frames (a "frame" message, then the pixels: RGBA or a JPEG) are decoded here and drawn on the
// viewfinder's canvas when the page hands it over; otherwise (no OffscreenCanvas, or no animation
// frames in workers) each decoded frame goes to the page, which draws it. The page's messages go out.
function frameWorker() {
  let url = null;
  let socket = null;
  let show = null; // draws a decoded frame: this worker's painter, or a message to the page
  let frame = null; // the "frame" message the next binary message belongs to

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // The pixels of `message`'s frame: an ImageData for raw RGBA, an ImageBitmap for a JPEG; null when
  // they do not make a picture.
  async function image(message, bytes) {
    try {
      if (message && message.format === "rgba") {
        return new ImageData(new Uint8ClampedArray(bytes), message.width, message.height);
      }
      return await createImageBitmap(new Blob([bytes], { type: "image/jpeg" }));
    } catch (_) {
      return null; // not drawn; still acknowledged
    }
  }

  async function decode(bytes) {
    const message = frame;
    frame = null;
    show(await image(message, bytes), message ? message.seq : null);
    send({ type: "decoded" });
  }

  // The page's painter: the frame moves to the page (its pixels transferred, not copied).
  function showOnPage(image, seq) {
    const moved = !image ? [] : image.close ? [image] : [image.data.buffer];
    postMessage({ type: "picture", image, seq }, moved);
  }

  function connect() {
    socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", () => postMessage({ type: "open" }));
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return void decode(event.data);
      const message = JSON.parse(event.data);
      if (message.type === "frame") frame = message;
      else postMessage({ type: "message", message });
    });
    socket.addEventListener("close", (event) => {
      postMessage({ type: "close", reason: event.reason });
      setTimeout(connect, 1000);
    });
  }

  // What the page needs to know before it hands over its canvas.
  postMessage({ type: "hello", animationFrames: typeof requestAnimationFrame === "function" });

  self.onmessage = (event) => {
    const message = event.data;
    if (message.type === "start") {
      url = message.url;
      show = message.canvas
        ? framePainter(message.canvas.getContext("2d", { alpha: false }), (drawn) =>
            postMessage({ type: "drawn", ...drawn }),
          )
        : showOnPage;
      connect();
    } else if (message.type === "send") {
      send(message.message);
    }
  };
}

// A message to the server, through the worker's WebSocket (dropped while it is not connected).
function post(message) {
  if (studio.worker) studio.worker.postMessage({ type: "send", message });
}

// A frame the worker drew: its latency (input event → the animation frame that drew it) is measured
// here, where the input events' times are, and reported to the server (none for a frame that did not
// decode: nothing new was drawn).
function frameDrawn({ seq, size, at }) {
  if (size) {
    studio.framesShown += 1;
    studio.frameSize = size;
  }
  let latencyMs = null;
  if (size && seq !== null && studio.sentAt.has(seq)) {
    latencyMs = at - performance.timeOrigin - studio.sentAt.get(seq);
    studio.latencies.push(latencyMs);
    if (studio.latencies.length > 1024) studio.latencies.shift();
    drawLatency();
  }
  for (const key of [...studio.sentAt.keys()]) if (seq !== null && key <= seq) studio.sentAt.delete(key);
  post(latencyMs === null ? { type: "shown" } : { type: "shown", latencyMs });
}

function received(message) {
  if (message.type === "state") {
    studio.state = message.state;
    studio.labels = message.labels;
    drawList();
    drawOverlay();
    applyOverlay(message.overlay);
  } else if (message.type === "capture") {
    $("status").textContent = "Taking the picture…";
    download(message.url, "framedial-capture.jpg").then(() => {
      if ($("status").textContent === "Taking the picture…") $("status").textContent = "Picture taken.";
    });
  } else if (message.type === "error") {
    $("status").textContent = message.message;
  }
}

// Starts the frame worker, which connects to /live (and reconnects). It draws on the viewfinder's canvas
// where the browser lets a worker hold a canvas and time animation frames; elsewhere this page draws.
function connect() {
  const source = `"use strict";\nconst framePainter = ${framePainter};\n(${frameWorker})();\n`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  studio.worker = worker;
  let showHere = null;
  worker.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === "drawn") {
      frameDrawn(message);
    } else if (message.type === "picture") {
      showHere(message.image, message.seq);
    } else if (message.type === "hello") {
      const canvas = $("frame");
      const url = `ws://${location.host}/live`;
      if (message.animationFrames && canvas.transferControlToOffscreen) {
        const offscreen = canvas.transferControlToOffscreen();
        worker.postMessage({ type: "start", url, canvas: offscreen }, [offscreen]);
      } else {
        showHere = framePainter(canvas.getContext("2d", { alpha: false }), frameDrawn);
        worker.postMessage({ type: "start", url });
      }
    } else if (message.type === "message") {
      received(message.message);
    } else if (message.type === "open") {
      studio.connected = true;
      $("status").textContent = "Connected.";
      sendViewSize(true);
    } else if (message.type === "close") {
      studio.connected = false;
      const reason = message.reason ? ` (${message.reason})` : "";
      $("status").textContent = `Disconnected from framedial studio${reason}; retrying…`;
    }
  });
}

function exportState() {
  const blob = new Blob([JSON.stringify(studio.state, null, 2) + "\n"], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "framedial-state.json";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

async function start() {
  const config = await (await fetch("/studio.json")).json();
  studio.config = config;
  $("device-name").textContent = `${config.device.name}, ${config.screen.width}×${config.screen.height} px`;
  $("screen").style.aspectRatio = `${config.screen.width} / ${config.screen.height}`;
  place($("frame"), config.viewfinder);
  const overlay = $("overlay");
  if (config.overlay) place(overlay, config.overlay);
  else overlay.hidden = true;
  new ResizeObserver(() => sendViewSize(false)).observe($("frame"));
  window.addEventListener("resize", () => sendViewSize(false)); // a new devicePixelRatio too
  for (const target of [$("slider"), $("options")]) {
    target.addEventListener("keydown", onKey);
    target.addEventListener("wheel", onWheel, { passive: false });
  }
  for (const type of ["pointerdown", "pointermove"]) $("slider").addEventListener(type, onDrag);
  $("export-state").addEventListener("click", exportState);
  $("export-look").addEventListener("click", () => download("/look.cube", "framedial-look.cube"));
  $("record").addEventListener("click", () => setRecording(true));
  $("stop").addEventListener("click", () => setRecording(false));
  $("choices").addEventListener("keydown", onChoiceKey);
  // Tabbing into the hidden overlay opens it on its control, as choosing that control would.
  $("overlay").addEventListener("focusin", () => {
    if (!studio.overlay.visible && studio.selected) chooseFromList(studio.selected);
  });
  bindPressButton($("light-press"), "secondary");
  bindPressButton($("full-press"), "primary");
  document.addEventListener("keydown", onPressKey);
  document.addEventListener("keyup", onPressKey);
  $("camera-control").classList.toggle("landscape", config.device.orientation === "landscape");
  if (!config.device.hasCameraControl) $("camera-control").hidden = true;
  choose(config.controls.find((c) => c.name === "exposure-bias") ?? config.controls[0], false);
  connect();
}

start();
