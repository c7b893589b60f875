// A Kiwi Chow Down protocol client for Node.js (protocol 1, docs/PROTOCOL.md), over `kcd serve --stdio`.
// No dependencies: the engine runs as a child process and speaks JSON lines on its stdin/stdout.
"use strict";

const { spawn } = require("node:child_process");
const readline = require("node:readline");

const PROTOCOL = 1;

class KcdClient {
  /** Start `command ...args serve --stdio` (e.g. command "kcd"). */
  constructor(command = "kcd", args = []) {
    this.child = spawn(command, [...args, "serve", "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
    this.nextId = 1;
    this.waiting = new Map();   // request id -> resolve
    this.pushes = [];           // pushed messages not yet read
    this.pushWaiter = null;
    this.closed = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
    this.child.on("exit", () => {
      for (const [, r] of this.waiting) r.reject(new Error("the engine exited"));
      if (this.pushWaiter) this.pushWaiter.reject(new Error("the engine exited"));
    });
    readline.createInterface({ input: this.child.stdout }).on("line", (line) => this._onLine(line));
  }

  _onLine(line) {
    const message = JSON.parse(line);
    if (message.push) {
      if (this.pushWaiter) { const w = this.pushWaiter; this.pushWaiter = null; w.resolve(message); }
      else this.pushes.push(message);
      return;
    }
    const waiter = this.waiting.get(message.id);
    if (waiter) { this.waiting.delete(message.id); waiter.resolve(message); }
  }

  /** Send one request; resolves with its reply ({ok: true, ...} or {ok: false, error: {code, message}}). */
  request(op, fields = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(JSON.stringify({ protocol: PROTOCOL, id, op, ...fields }) + "\n");
    });
  }

  /** The next pushed update (after each decision in a joined game). */
  nextPush() {
    if (this.pushes.length) return Promise.resolve(this.pushes.shift());
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

  /** Close the engine's input; resolves with its exit code. */
  close() {
    this.child.stdin.end();
    return this.closed;
  }
}

module.exports = { KcdClient, PROTOCOL };
