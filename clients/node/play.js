#!/usr/bin/env node
// Example embedder: plays one whole game of Kiwi Chow Down against an engine bot, over `kcd serve --stdio`,
// using only the protocol. Usage:
//   node clients/node/play.js [--kcd PATH] [--seed N] [--bot greedy|random] [--players N] [--quiet] [-- KCD ARGS]
// Prints one JSON line at the end: {"seat", "scores", "ranking", "decisions", "undos"}.
"use strict";

const { KcdClient } = require("./kcd.js");

function parseArgs(argv) {
  const opts = { kcd: process.env.KCD || "kcd", seed: 1, bot: "greedy", players: 2, quiet: false, kcdArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") { opts.kcdArgs = argv.slice(i + 1); break; }
    if (a === "--kcd") opts.kcd = argv[++i];
    else if (a === "--seed") opts.seed = Number(argv[++i]);
    else if (a === "--bot") opts.bot = argv[++i];
    else if (a === "--players") opts.players = Number(argv[++i]);
    else if (a === "--quiet") opts.quiet = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

// A small seeded generator, so the same --seed plays the same game.
function lcg(seed) {
  let s = (seed >>> 0) || 1;
  return (n) => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s % n; };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const kcd = new KcdClient(opts.kcd, opts.kcdArgs);
  const pick = lcg(opts.seed);
  const hello = await kcd.request("hello");
  if (!hello.ok) throw new Error(hello.error.message);
  const seats = [{ kind: "human" }];
  for (let i = 1; i < opts.players; i++) seats.push({ kind: "bot", bot: opts.bot });
  const made = await kcd.request("create", { seats, seed: opts.seed });
  if (!made.ok) throw new Error(`create: ${made.error.message}`);
  const seat = made.seats[0].flock;
  const token = made.tokens[seat];
  let view = (await kcd.request("join", { token })).view;
  let decisions = 0, undos = 0;
  for (;;) {
    view = await kcd.waitTurn(view);
    if (view.over) break;
    const options = view.pending.options;
    const choice = options[pick(options.length)];
    if (!opts.quiet) console.error(`${seat}: ${view.pending.prompt} -> ${choice.label}`);
    let reply = await kcd.request("apply", { token, option: choice.id, seq: view.seq });
    if (!reply.ok) throw new Error(`apply: ${reply.error.message}`);
    decisions++;
    // now and then take a decision back and make it again, where the rules of undo allow
    if (decisions % 10 === 0) {
      const undo = await kcd.request("undo", { token });
      if (undo.ok) {
        undos++;
        reply = await kcd.request("redo", { token });
        if (!reply.ok) throw new Error(`redo: ${reply.error.message}`);
      }
    }
    view = (await kcd.request("view", { token })).view;
  }
  console.log(JSON.stringify({ seat, scores: view.scores, ranking: view.ranking, decisions, undos }));
  process.exitCode = (await kcd.close()) === 0 ? 0 : 1;
}

main().catch((err) => { console.error(`play.js: ${err.message}`); process.exit(1); });
