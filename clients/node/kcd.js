// A Kiwi Chow Down protocol client for Node.js (protocol 1, docs/PROTOCOL.md), over `kcd serve --stdio`.
// No dependencies: the engine runs as a child process and speaks JSON lines on its stdin/stdout.
"use strict";

const { spawn } = require("node:child_process");
const readline = require("node:readline");

const PROTOCOL = 1;

/** The error for an engine that could not be started: a missing executable says so and how to fix it. */
function startError(command, err) {
  if (err.code === "ENOENT") {
    return new Error(`cannot start the engine: \`${command}\` was not found (spawn ENOENT); install it ` +
                     "(pip install kiwi-chow-down, or pip install -e . in a checkout) or give its path " +
                     "(play.js --kcd PATH, or KCD=PATH)");
  }
  return new Error(`cannot start the engine \`${command}\`: ${err.message}`);
}

class KcdClient {
  /** Start `command ...args serve --stdio` (e.g. command "kcd"). A command that cannot be started (not
   * found, not executable) rejects every request, and `closed`, with a clear error instead of crashing. */
  constructor(command = "kcd", args = []) {
    this.nextId = 1;
    this.waiting = new Map();   // request id -> {resolve, reject}, in the order sent
    this.pushes = [];           // pushed messages not yet read
    this.pushWaiter = null;
    this.failure = null;        // why the engine is gone (an Error), once it is
    this.child = spawn(command, [...args, "serve", "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
    this.closed = new Promise((resolve, reject) => {
      this.child.on("exit", (code) => resolve(code));
      this.child.on("error", (err) => { this._fail(startError(command, err)); reject(this.failure); });
    });
    this.closed.catch(() => {});   // a start failure is reported through the requests; no unhandled rejection
    this.child.on("exit", () => this._fail(new Error("the engine exited")));
    this.child.stdin.on("error", () => {});   // writing to an engine that is gone: reported by `exit`/`error`
    readline.createInterface({ input: this.child.stdout }).on("line", (line) => this._onLine(line));
  }

  _fail(error) {
    if (!this.failure) this.failure = error;
    for (const [, r] of this.waiting) r.reject(this.failure);
    this.waiting.clear();
    if (this.pushWaiter) { const w = this.pushWaiter; this.pushWaiter = null; w.reject(this.failure); }
  }

  _onLine(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch (err) {
      this._fail(new Error(`the engine wrote a line that is not JSON: ${line.slice(0, 200)}`));
      return;
    }
    if (message.push) {
      if (this.pushWaiter) { const w = this.pushWaiter; this.pushWaiter = null; w.resolve(message); }
      else this.pushes.push(message);
      return;
    }
    // replies come in the order of the requests: one with `id: null` answers a message the server could not
    // read (docs/PROTOCOL.md), which is the oldest request still waiting
    const id = message.id === null ? this.waiting.keys().next().value : message.id;
    const waiter = this.waiting.get(id);
    if (waiter) { this.waiting.delete(id); waiter.resolve(message); }
  }

  /** Send one request; resolves with its reply ({ok: true, ...} or {ok: false, error: {code, message}}). */
  request(op, fields = {}) {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(JSON.stringify({ protocol: PROTOCOL, id, op, ...fields }) + "\n");
    });
  }

  /** The next pushed update (after each decision in a joined game). */
  nextPush() {
    if (this.pushes.length) return Promise.resolve(this.pushes.shift());
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => { this.pushWaiter = { resolve, reject }; });
  }

  /** Given the latest view, wait for pushes until it is this seat's decision or the game is over. */
  async waitTurn(view) {
    while (!view.over && !(view.pending && view.pending.player === view.you && view.pending.options.length)) {
      const push = await this.nextPush();
      if (push.seq >= view.seq || push.reset) view = push.view;
    }
    return view;
  }

  /** Close the engine's input; resolves with its exit code (null when it never started). */
  close() {
    this.child.stdin.end();
    return this.closed.catch(() => null);
  }
}

module.exports = { KcdClient, PROTOCOL };
