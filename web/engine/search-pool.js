// The parallel search's search workers (worker.js?role=search, each its own Pyodide):
// started, watched while they load (a deadline, "fatal", error events), terminated when
// they fail, and restarted between searches. parallel-client.js runs the searches on the
// ready ones; the pool tells it of their answers and failures through its listener.

const MAX_LOAD_FAILURES = 3; // a slot that failed to load this often in a row stays down

// The search workers. A slot is {index, worker, state: "loading" | "ready" | "dead",
// loadFailures}; listener receives result(slot, msg) and failure(slot).
export class SearchPool {
  constructor({ workerUrl, loadTimeoutMs, onChange }) {
    this.workerUrl = workerUrl;
    this.loadTimeoutMs = loadTimeoutMs;
    this.onChange = onChange;
    this.slots = [];
    this.listener = null;
    this.restarts = 0;
  }

  resize(n) {
    while (this.slots.length > n) this._end(this.slots.pop());
    while (this.slots.length < n) {
      const slot = { index: this.slots.length, worker: null, state: "dead", loadFailures: 0 };
      this.slots.push(slot);
      this._spawn(slot);
    }
    this.onChange();
  }

  ready() {
    return this.slots.filter((s) => s.state === "ready");
  }

  _spawn(slot) {
    const worker = new Worker(this.workerUrl);
    slot.worker = worker;
    slot.state = "loading";
    clearTimeout(slot.loadTimer);
    slot.loadTimer = setTimeout(() => {
      if (slot.worker === worker && slot.state === "loading") this.kill(slot, "did not load in time");
    }, this.loadTimeoutMs);
    worker.onmessage = (event) => {
      if (slot.worker !== worker) return; // a replaced worker's late words
      const msg = event.data;
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "ready") {
        clearTimeout(slot.loadTimer);
        slot.state = "ready";
        slot.loadFailures = 0;
        this.onChange();
      } else if (msg.type === "fatal") {
        this.kill(slot, "failed to load: " + msg.message);
      } else if (slot.state === "ready" && this.listener) {
        this.listener.result(slot, msg);
      }
    };
    worker.onerror = (event) => {
      if (slot.worker !== worker) return;
      event.preventDefault();
      this.kill(slot, "error: " + (event.message || "unknown"));
    };
  }

  _end(slot) {
    clearTimeout(slot.loadTimer);
    if (slot.worker) slot.worker.terminate();
    slot.worker = null;
    slot.state = "dead";
  }

  // Terminate a search worker; the running search (if any) hears of it.
  kill(slot, why = "terminated") {
    if (slot.state === "dead") return;
    if (slot.state === "loading") slot.loadFailures += 1;
    console.warn(`search worker ${slot.index} ${why}`);
    this._end(slot);
    if (this.listener) this.listener.failure(slot);
    this.onChange();
  }

  // Restart the dead ones (between searches).
  revive() {
    let any = false;
    for (const slot of this.slots) {
      if (slot.state === "dead" && slot.loadFailures < MAX_LOAD_FAILURES) {
        this.restarts += 1;
        this._spawn(slot);
        any = true;
      }
    }
    if (any) this.onChange();
  }
}
