// @ts-check
/* The phone's storage, the one place that touches it: JSON read and written in localStorage
   (`local`: kept on this phone, shared by its tabs) and sessionStorage (`session`: this tab only).
   Never throws: without storage (private mode, full, blocked) a read gives its default and a
   write is dropped, so the page carries on with what is on screen. */

/** @param {"localStorage" | "sessionStorage"} name */
function area(name) {
  /** @returns {Storage} */
  const where = () => window[name];  /* reading the property itself throws where storage is blocked */
  return {
    /** The value kept under key, or fallback when there is none (or it cannot be read). What was
       kept is JSON this phone wrote, taken to have the fallback's shape: a reader that cannot
       trust it (another version's, edited by hand) says unknown and checks it.
       @template T
       @param {string} key
       @param {T} fallback
       @returns {T} */
    read(key, fallback) {
      try {
        const text = where().getItem(key);
        return text ? JSON.parse(text) ?? fallback : fallback;
      } catch {
        return fallback;
      }
    },
    /** @param {string} key @param {unknown} value */
    write(key, value) {
      try { where().setItem(key, JSON.stringify(value)); } catch { /* no storage */ }
    },
    /** @param {string} key */
    forget(key) {
      try { where().removeItem(key); } catch { /* no storage */ }
    },
    /** The keys kept that begin with prefix.
       @param {string} prefix
       @returns {string[]} */
    keys(prefix) {
      try { return Object.keys(where()).filter((key) => key.startsWith(prefix)); } catch { return []; }
    },
  };
}

export const local = area("localStorage");
export const session = area("sessionStorage");
