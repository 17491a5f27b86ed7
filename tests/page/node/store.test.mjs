// node --test: web/model/store.js (one value, replaced on change, and its subscribers).
import assert from "node:assert/strict";
import test from "node:test";

import { createStore } from "../../../web/model/store.js";

test("update with a patch or a function; subscribers hear the value and the previous one", () => {
  const store = createStore({ a: 1, b: { c: 2 } });
  const heard = [];
  store.subscribe((value, prev) => heard.push([value.a, prev.a]));
  const first = store.get();
  store.update({ a: 2 });
  assert.equal(store.get().a, 2);
  assert.equal(store.get().b, first.b, "fields not in the patch are kept as they are");
  assert.equal(first.a, 1, "the old value is never changed");
  store.update((s) => ({ ...s, a: s.a + 1 }));
  assert.deepEqual(heard, [[2, 1], [3, 2]]);
});

test("a change that replaces nothing is no change", () => {
  const b = { c: 2 };
  const store = createStore({ a: 1, b });
  let calls = 0;
  store.subscribe(() => { calls += 1; });
  const before = store.get();
  store.update({ a: 1, b });
  store.update((s) => s);
  assert.equal(store.get(), before);
  assert.equal(calls, 0);
  store.update({ b: { c: 2 } }); // a new object is a change
  assert.equal(calls, 1);
});

test("subscribers are called in order; unsubscribe ends it", () => {
  const store = createStore({ n: 0 });
  const order = [];
  const stop = store.subscribe(() => order.push("first"));
  store.subscribe(() => order.push("second"));
  store.update({ n: 1 });
  stop();
  store.update({ n: 2 });
  assert.deepEqual(order, ["first", "second", "second"]);
});

test("a change made by a subscriber is heard by all once the round is over", () => {
  const store = createStore({ n: 0, doubled: 0 });
  const seen = [];
  store.subscribe((s) => { if (s.doubled !== s.n * 2) store.update({ doubled: s.n * 2 }); });
  store.subscribe((s, prev) => seen.push(`${prev.n},${prev.doubled} -> ${s.n},${s.doubled}`));
  store.update({ n: 3 });
  assert.deepEqual(store.get(), { n: 3, doubled: 6 });
  assert.deepEqual(seen, ["0,0 -> 3,0", "3,0 -> 3,6"]);
});

test("a subscriber that throws leaves the store usable", () => {
  const store = createStore({ n: 0 });
  let fail = true;
  store.subscribe(() => { if (fail) throw new Error("render failed"); });
  assert.throws(() => store.update({ n: 1 }), /render failed/);
  assert.equal(store.get().n, 1);
  fail = false;
  store.update({ n: 2 });
  assert.equal(store.get().n, 2);
});
