/** Anything callable: a model type's methods, which stay on the engine's side. */
type Method = (...args: never[]) => unknown;

/**
 * A core model type as it crosses `postMessage` as plain JSON: bigints as decimal strings,
 * methods dropped, the same for what it holds. A DTO that is its model type so is written once,
 * in the model; engine/dto.ts builds each one field by field, so no extra property crosses.
 */
export type Wire<T> = T extends bigint
  ? string
  : T extends Method
    ? never
    : T extends readonly (infer E)[]
      ? readonly Wire<E>[]
      : T extends object
        ? // Mapped over keyof T, so optional members stay optional; methods (optional ones too) are left out.
          { readonly [K in keyof T as NonNullable<T[K]> extends Method ? never : K]: Wire<T[K]> }
        : T;
