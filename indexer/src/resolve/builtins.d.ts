// The built-in JavaScript types tsgraph's type evaluator follows values through. Only what
// typing receivers needs: element types of arrays, sets and maps, promise results, and the
// parameters of the callbacks their methods take.

interface Array<T> {
  length: number;
  [n: number]: T;
  forEach(callbackfn: (value: T, index: number, array: T[]) => void, thisArg?: any): void;
  map<U>(callbackfn: (value: T, index: number, array: T[]) => U, thisArg?: any): U[];
  filter(predicate: (value: T, index: number, array: T[]) => unknown, thisArg?: any): T[];
  find(predicate: (value: T, index: number, obj: T[]) => unknown, thisArg?: any): T | undefined;
  findLast(predicate: (value: T, index: number, obj: T[]) => unknown, thisArg?: any): T | undefined;
  findIndex(predicate: (value: T, index: number, obj: T[]) => unknown, thisArg?: any): number;
  findLastIndex(predicate: (value: T, index: number, obj: T[]) => unknown, thisArg?: any): number;
  some(predicate: (value: T, index: number, array: T[]) => unknown, thisArg?: any): boolean;
  every(predicate: (value: T, index: number, array: T[]) => unknown, thisArg?: any): boolean;
  reduce<U>(callbackfn: (previousValue: U, currentValue: T, currentIndex: number, array: T[]) => U, initialValue: U): U;
  reduceRight<U>(callbackfn: (previousValue: U, currentValue: T, currentIndex: number, array: T[]) => U, initialValue: U): U;
  flatMap<U>(callback: (value: T, index: number, array: T[]) => U | U[], thisArg?: any): U[];
  flat(depth?: number): T[];
  sort(compareFn?: (a: T, b: T) => number): T[];
  toSorted(compareFn?: (a: T, b: T) => number): T[];
  slice(start?: number, end?: number): T[];
  concat(...items: T[]): T[];
  push(...items: T[]): number;
  pop(): T | undefined;
  shift(): T | undefined;
  unshift(...items: T[]): number;
  splice(start: number, deleteCount?: number, ...items: T[]): T[];
  reverse(): T[];
  toReversed(): T[];
  indexOf(searchElement: T, fromIndex?: number): number;
  lastIndexOf(searchElement: T, fromIndex?: number): number;
  includes(searchElement: T, fromIndex?: number): boolean;
  join(separator?: string): string;
  at(index: number): T | undefined;
  fill(value: T, start?: number, end?: number): T[];
  keys(): IterableIterator<number>;
  values(): IterableIterator<T>;
  entries(): IterableIterator<[number, T]>;
}

interface ReadonlyArray<T> {
  length: number;
  [n: number]: T;
  forEach(callbackfn: (value: T, index: number, array: readonly T[]) => void, thisArg?: any): void;
  map<U>(callbackfn: (value: T, index: number, array: readonly T[]) => U, thisArg?: any): U[];
  filter(predicate: (value: T, index: number, array: readonly T[]) => unknown, thisArg?: any): T[];
  find(predicate: (value: T, index: number, obj: readonly T[]) => unknown, thisArg?: any): T | undefined;
  findIndex(predicate: (value: T, index: number, obj: readonly T[]) => unknown, thisArg?: any): number;
  some(predicate: (value: T, index: number, array: readonly T[]) => unknown, thisArg?: any): boolean;
  every(predicate: (value: T, index: number, array: readonly T[]) => unknown, thisArg?: any): boolean;
  reduce<U>(callbackfn: (previousValue: U, currentValue: T, currentIndex: number, array: readonly T[]) => U, initialValue: U): U;
  flatMap<U>(callback: (value: T, index: number, array: T[]) => U | readonly U[], thisArg?: any): U[];
  slice(start?: number, end?: number): T[];
  concat(...items: T[]): T[];
  indexOf(searchElement: T, fromIndex?: number): number;
  includes(searchElement: T, fromIndex?: number): boolean;
  join(separator?: string): string;
  at(index: number): T | undefined;
  keys(): IterableIterator<number>;
  values(): IterableIterator<T>;
  entries(): IterableIterator<[number, T]>;
}

interface ArrayConstructor {
  new <T>(...items: T[]): T[];
  from<T>(iterable: Iterable<T>): T[];
  of<T>(...items: T[]): T[];
  isArray(arg: any): boolean;
}
declare var Array: ArrayConstructor;

interface Iterable<T> {}
interface AsyncIterable<T> {}
interface IterableIterator<T> {
  next(): IteratorResult<T>;
}
interface IteratorResult<T> {
  done?: boolean;
  value: T;
}

interface PromiseLike<T> {
  then<TResult1, TResult2>(onfulfilled?: (value: T) => TResult1, onrejected?: (reason: any) => TResult2): PromiseLike<TResult1 | TResult2>;
}
interface Promise<T> {
  then<TResult1, TResult2>(onfulfilled?: (value: T) => TResult1, onrejected?: (reason: any) => TResult2): Promise<TResult1 | TResult2>;
  catch<TResult>(onrejected?: (reason: any) => TResult): Promise<T | TResult>;
  finally(onfinally?: () => void): Promise<T>;
}
interface PromiseConstructor {
  new <T>(executor: (resolve: (value: T) => void, reject: (reason?: any) => void) => void): Promise<T>;
  resolve<T>(value: T): Promise<T>;
  reject<T>(reason?: any): Promise<T>;
  all<T>(values: T[]): Promise<T[]>;
  allSettled<T>(values: T[]): Promise<T[]>;
  race<T>(values: T[]): Promise<T>;
  any<T>(values: T[]): Promise<T>;
}
declare var Promise: PromiseConstructor;

interface Map<K, V> {
  size: number;
  get(key: K): V | undefined;
  set(key: K, value: V): this;
  has(key: K): boolean;
  delete(key: K): boolean;
  clear(): void;
  forEach(callbackfn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: any): void;
  keys(): IterableIterator<K>;
  values(): IterableIterator<V>;
  entries(): IterableIterator<[K, V]>;
}
interface ReadonlyMap<K, V> {
  size: number;
  get(key: K): V | undefined;
  has(key: K): boolean;
  forEach(callbackfn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: any): void;
  keys(): IterableIterator<K>;
  values(): IterableIterator<V>;
  entries(): IterableIterator<[K, V]>;
}
interface MapConstructor {
  new <K, V>(entries?: any): Map<K, V>;
}
declare var Map: MapConstructor;
interface WeakMap<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): this;
  has(key: K): boolean;
  delete(key: K): boolean;
}
interface WeakMapConstructor {
  new <K, V>(entries?: any): WeakMap<K, V>;
}
declare var WeakMap: WeakMapConstructor;

interface Set<T> {
  size: number;
  add(value: T): this;
  has(value: T): boolean;
  delete(value: T): boolean;
  clear(): void;
  forEach(callbackfn: (value: T, value2: T, set: Set<T>) => void, thisArg?: any): void;
  keys(): IterableIterator<T>;
  values(): IterableIterator<T>;
  entries(): IterableIterator<[T, T]>;
}
interface ReadonlySet<T> {
  size: number;
  has(value: T): boolean;
  forEach(callbackfn: (value: T, value2: T, set: ReadonlySet<T>) => void, thisArg?: any): void;
  values(): IterableIterator<T>;
}
interface SetConstructor {
  new <T>(values?: Iterable<T>): Set<T>;
}
declare var Set: SetConstructor;
interface WeakSet<T> {
  add(value: T): this;
  has(value: T): boolean;
  delete(value: T): boolean;
}
interface WeakSetConstructor {
  new <T>(values?: any): WeakSet<T>;
}
declare var WeakSet: WeakSetConstructor;

interface WeakRef<T> {
  deref(): T | undefined;
}

interface String {
  length: number;
  split(separator: any, limit?: number): string[];
  trim(): string;
  toLowerCase(): string;
  toUpperCase(): string;
  slice(start?: number, end?: number): string;
  substring(start: number, end?: number): string;
  replace(searchValue: any, replaceValue: any): string;
  replaceAll(searchValue: any, replaceValue: any): string;
  padStart(maxLength: number, fillString?: string): string;
  padEnd(maxLength: number, fillString?: string): string;
  startsWith(searchString: string): boolean;
  endsWith(searchString: string): boolean;
  includes(searchString: string): boolean;
  indexOf(searchString: string): number;
  charAt(pos: number): string;
  match(regexp: any): string[] | null;
}
interface Number {
  toFixed(fractionDigits?: number): string;
  toString(radix?: number): string;
}
interface Boolean {}

interface Record<K, T> {
  [key: string]: T;
}

interface ObjectConstructor {
  keys(o: object): string[];
  values<T>(o: Record<string, T>): T[];
  entries<T>(o: Record<string, T>): [string, T][];
  assign<T, U>(target: T, source: U): T & U;
  freeze<T>(o: T): T;
  fromEntries<T>(entries: Iterable<[string, T]>): Record<string, T>;
}
declare var Object: ObjectConstructor;

type Partial<T> = T;
type Required<T> = T;
type Readonly<T> = T;
type Pick<T, K> = T;
type Omit<T, K> = T;
type NonNullable<T> = T;
type Exclude<T, U> = T;
type Extract<T, U> = T;
type NoInfer<T> = T;
type Awaited<T> = T;
type ReturnType<T> = T;
type InstanceType<T> = T;
/** A marker: an object literal's methods have `this: T` where its contextual type holds it. */
interface ThisType<T> {}
