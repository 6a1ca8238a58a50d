  ;; fstwalk.wat, the lookup of one key.
  ;; Joined into that module by assemble.mjs: the memory map, globals and imports used here are there.

  ;; Looks up the `len` bytes at KEYIN from the root (`resume` 0), or goes on with the lookup
  ;; that returned NEED (`resume` 1) once the caller has loaded the window: a lookup never starts
  ;; over, so it needs no more windows at once than one step does. Returns MISSING 0, FOUND 1
  ;; (the value at VALUE), NEED or BAIL.
  ;; Unlike `stream`, it keeps the node in locals instead of a frame: each step looks up one
  ;; window and reads only the node's header and the one transition the key takes, with the same
  ;; checks as $decode and $trans (so it bails wherever they would).
  (global $gDepth (mut i32) (i32.const 0))
  (global $gAcc (mut i64) (i64.const 0))
  (global $gAddr (mut i32) (i32.const 0))
  (func (export "get") (param $root i32) (param $len i32) (param $resume i32) (result i32)
    (local $a i32) (local $d i32) (local $acc i64) (local $t i32) (local $low i32) (local $state i32)
    (local $top i32) (local $p i32) (local $code i32) (local $input i32) (local $b i32) (local $sizes i32)
    (local $ts i32) (local $os i32) (local $start i32) (local $n i32) (local $fb i32) (local $ins i32)
    (local $i i32) (local $c i32) (local $out i64) (local $delta i64)
    (if (local.get $resume)
      (then
        (local.set $a (global.get $gAddr))
        (local.set $d (global.get $gDepth))
        (local.set $acc (global.get $gAcc)))
      (else (local.set $a (local.get $root))))
    (loop $node
      ;; EMPTY (address 0): final, no output, no transitions.
      (if (i32.eqz (local.get $a))
        (then
          (if (i32.lt_u (local.get $d) (local.get $len)) (then (return (i32.const 0))))
          (return (call $found (local.get $acc)))))
      (if (i32.or (i32.lt_s (local.get $a) (i32.const 16)) (i32.ge_s (local.get $a) (global.get $limit)))
        (then (return (i32.const 3))))
      (local.set $t (i32.load (i32.add (global.get $TABLE) (i32.shl (i32.shr_u (local.get $a) (i32.const 16)) (i32.const 2)))))
      (if (i32.eq (local.get $t) (global.get $ABSENT))
        (then
          (global.set $need (local.get $a))
          (global.set $gAddr (local.get $a))
          (global.set $gDepth (local.get $d))
          (global.set $gAcc (local.get $acc))
          (return (i32.const 2))))
      (local.set $low (i32.sub (i32.shl (i32.shr_u (local.get $a) (i32.const 16)) (i32.const 16)) (i32.const 8192)))
      (if (i32.lt_s (local.get $low) (i32.const 16)) (then (local.set $low (i32.const 16))))
      (local.set $state (i32.load8_u (i32.add (local.get $t) (local.get $a))))
      (local.set $top (i32.shr_u (local.get $state) (i32.const 6)))
      (local.set $p (i32.sub (local.get $a) (i32.const 1)))
      ;; The key's next byte, or -1 (which no input equals) at the end of the key.
      (local.set $b
        (select (i32.load8_u (i32.add (global.get $KEYIN) (local.get $d))) (i32.const -1) (i32.lt_u (local.get $d) (local.get $len))))
      (if (i32.ge_u (local.get $top) (i32.const 2))
        (then
          ;; One transition, never final: its input is a common byte or the byte below the state.
          (local.set $code (i32.and (local.get $state) (i32.const 63)))
          (if (local.get $code)
            (then (local.set $input (i32.load8_u (i32.add (global.get $COMMON) (i32.sub (local.get $code) (i32.const 1))))))
            (else
              (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
              (local.set $input (i32.load8_u (i32.add (local.get $t) (local.get $p))))
              (local.set $p (i32.sub (local.get $p) (i32.const 1)))))
          (if (i32.eq (local.get $top) (i32.const 3))
            (then
              ;; OneTransNext: no output; the target is the node that ends just below this one.
              (if (i32.lt_s (i32.add (local.get $p) (i32.const 1)) (local.get $low)) (then (return (i32.const 3))))
              (if (i32.ne (local.get $input) (local.get $b)) (then (return (i32.const 0))))
              (if (i32.lt_s (local.get $p) (i32.const 16)) (then (return (i32.const 3))))
              (local.set $a (local.get $p))
              (local.set $d (i32.add (local.get $d) (i32.const 1)))
              (br $node)))
          (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
          (local.set $sizes (i32.load8_u (i32.add (local.get $t) (local.get $p))))
          (local.set $ts (i32.shr_u (local.get $sizes) (i32.const 4)))
          (local.set $os (i32.and (local.get $sizes) (i32.const 15)))
          (if (i32.or (i32.gt_u (local.get $ts) (i32.const 8)) (i32.gt_u (local.get $os) (i32.const 8))) (then (return (i32.const 3))))
          (local.set $start (i32.sub (i32.sub (local.get $p) (local.get $ts)) (local.get $os)))
          (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
          (if (i32.ne (local.get $input) (local.get $b)) (then (return (i32.const 0))))
          ;; The output, then the delta, above the start (see $uint; inlined on this hot path).
          (local.set $out
            (select
              (i64.and (i64.load (i32.add (local.get $t) (local.get $start)))
                       (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $os) (i32.const 3))))))
              (i64.const 0) (local.get $os)))
          (local.set $delta
            (select
              (i64.and (i64.load (i32.add (i32.add (local.get $t) (local.get $start)) (local.get $os)))
                       (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $ts) (i32.const 3))))))
              (i64.const 0) (local.get $ts))))
        (else
          ;; AnyTrans: the count (in the state or the byte below), the sizes, for version 2+
          ;; and more than 32 transitions a 256-byte index, the inputs, the deltas, the outputs
          ;; and, for a final node, its output.
          (local.set $n (i32.and (local.get $state) (i32.const 63)))
          (if (i32.eqz (local.get $n))
            (then
              (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
              (local.set $n (i32.load8_u (i32.add (local.get $t) (local.get $p))))
              (local.set $p (i32.sub (local.get $p) (i32.const 1)))
              (if (i32.eq (local.get $n) (i32.const 1)) (then (local.set $n (i32.const 256))))))
          (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
          (local.set $sizes (i32.load8_u (i32.add (local.get $t) (local.get $p))))
          (local.set $ts (i32.shr_u (local.get $sizes) (i32.const 4)))
          (local.set $os (i32.and (local.get $sizes) (i32.const 15)))
          (if (i32.or (i32.gt_u (local.get $ts) (i32.const 8)) (i32.gt_u (local.get $os) (i32.const 8))) (then (return (i32.const 3))))
          (if (i32.and (i32.ne (local.get $n) (i32.const 0)) (i32.eqz (local.get $ts))) (then (return (i32.const 3))))
          (if (i32.and (i32.ge_u (global.get $version) (i32.const 2)) (i32.gt_u (local.get $n) (i32.const 32)))
            (then (local.set $p (i32.sub (local.get $p) (i32.const 256)))))
          (local.set $fb (select (local.get $os) (i32.const 0) (i32.eq (local.get $top) (i32.const 1))))
          (local.set $start
            (i32.sub (local.get $p)
              (i32.add (i32.mul (local.get $n) (i32.add (i32.const 1) (i32.add (local.get $ts) (local.get $os)))) (local.get $fb))))
          (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
          ;; Input i is at memory address $ins − i.
          (local.set $ins (i32.add (local.get $t) (i32.sub (local.get $p) (i32.const 1))))
          (if (i32.eqz (call $increasing (local.get $ins) (local.get $n))) (then (return (i32.const 3))))
          (if (i32.ge_u (local.get $d) (local.get $len))
            (then
              (if (local.get $fb)
                (then (return (call $found (i64.add (local.get $acc) (call $uint (i32.add (local.get $t) (local.get $start)) (local.get $fb)))))))
              (if (i32.eq (local.get $top) (i32.const 1)) (then (return (call $found (local.get $acc)))))
              (return (i32.const 0))))
          (if (i32.and (i32.ge_u (global.get $version) (i32.const 2)) (i32.gt_u (local.get $n) (i32.const 32)))
            (then
              ;; The index lies just above the inputs.
              (local.set $i (i32.load8_u (i32.add (i32.add (local.get $ins) (i32.const 1)) (local.get $b))))
              (if (i32.eqz
                    (i32.and (i32.lt_u (local.get $i) (local.get $n))
                             (i32.eq (i32.load8_u (i32.sub (local.get $ins) (local.get $i))) (local.get $b))))
                (then (return (i32.const 0)))))
            (else
              ;; Inputs increase (checked above): stop at the first one above b.
              (local.set $i (i32.const 0))
              (block $found
                (loop $scan
                  (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const 0))))
                  (local.set $c (i32.load8_u (i32.sub (local.get $ins) (local.get $i))))
                  (br_if $found (i32.eq (local.get $c) (local.get $b)))
                  (if (i32.gt_u (local.get $c) (local.get $b)) (then (return (i32.const 0))))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (br $scan)))))
          ;; Deltas run down from just below input n − 1, outputs below the deltas.
          (local.set $ins (i32.add (i32.sub (local.get $ins) (local.get $n)) (i32.const 1)))
          (local.set $delta
            (select
              (i64.and (i64.load (i32.sub (local.get $ins) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $ts))))
                       (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $ts) (i32.const 3))))))
              (i64.const 0) (local.get $ts)))
          (local.set $out
            (select
              (i64.and
                (i64.load (i32.sub (i32.sub (local.get $ins) (i32.mul (local.get $n) (local.get $ts))) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $os))))
                (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $os) (i32.const 3))))))
              (i64.const 0) (local.get $os)))))
      ;; A delta of 0 is EMPTY; one past the start of the file or into the header is damage.
      (if (i64.eqz (local.get $delta))
        (then (local.set $a (i32.const 0)))
        (else
          (if (i64.gt_u (local.get $delta) (i64.extend_i32_u (local.get $start))) (then (return (i32.const 3))))
          (local.set $a (i32.sub (local.get $start) (i32.wrap_i64 (local.get $delta))))
          (if (i32.lt_s (local.get $a) (i32.const 16)) (then (return (i32.const 3))))))
      (local.set $acc (i64.add (local.get $acc) (local.get $out)))
      (local.set $d (i32.add (local.get $d) (i32.const 1)))
      (br $node))
    (unreachable))

  (func $found (param $acc i64) (result i32)
    (i64.store (global.get $VALUE) (local.get $acc))
    (i32.const 1))
