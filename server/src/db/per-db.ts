/**
 * One value per database object (a pool or the embedded database), made on
 * first use: e.g. a cache a service keeps for the database it reads. Each
 * process has its own; a test's database gets fresh ones.
 */
export function perDb<T>(make: () => T): (db: object) => T {
  const values = new WeakMap<object, T>();
  return (db) => {
    let value = values.get(db);
    if (value === undefined) {
      value = make();
      values.set(db, value);
    }
    return value;
  };
}
