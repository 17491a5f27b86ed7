// A store: one value (plain data, replaced on every change, never changed in place) and
// its subscribers. No DOM.
//
// update(change) takes a function of the current value or a patch of fields to replace;
// a change that replaces nothing is no change. Subscribers hear (value, previous) after
// each change, in the order they subscribed, synchronously; a change made by a subscriber
// is heard by all once the current round is over, with `previous` what they heard last.

export function createStore(initial) {
  let value = initial;
  let heard = initial; // what the subscribers heard last
  let notifying = false;
  const subscribers = [];

  function notify() {
    if (notifying) return;
    notifying = true;
    try {
      while (heard !== value) {
        const previous = heard;
        const current = value;
        heard = current;
        for (const fn of [...subscribers]) fn(current, previous);
      }
    } finally {
      notifying = false;
    }
  }

  return {
    get: () => value,
    update(change) {
      let next;
      if (typeof change === "function") next = change(value);
      else if (Object.keys(change).some((k) => !Object.is(value[k], change[k]))) next = { ...value, ...change };
      else next = value;
      if (next === value) return value;
      value = next;
      notify();
      return value;
    },
    // returns the function that ends the subscription
    subscribe(fn) {
      subscribers.push(fn);
      return () => {
        const i = subscribers.indexOf(fn);
        if (i >= 0) subscribers.splice(i, 1);
      };
    },
  };
}
