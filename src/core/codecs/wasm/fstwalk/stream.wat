  ;; fstwalk.wat, the ordered walk: the DFA step of a search, starting, seeking and running a stream.
  ;; Joined into that module by assemble.mjs: the memory map, globals and imports used here are there.

  ;; The DFA state after state s reads byte b: from the table, or built by the host on first use.
  (func $next (param $s i32) (param $b i32) (result i32)
    (local $e i32) (local $t i32)
    (local.set $e
      (i32.add (global.get $dfa)
        (i32.shl (i32.add (i32.mul (local.get $s) (global.get $classes)) (i32.load8_u (i32.add (global.get $CLASSES) (local.get $b))))
          (i32.const 2))))
    (local.set $t (i32.load (local.get $e)))
    (if (i32.ne (local.get $t) (i32.const -1)) (then (return (local.get $t))))
    (local.set $t (call $step (local.get $s) (local.get $b)))
    (if (i32.ne (local.get $t) (i32.const -3)) (then (i32.store (local.get $e) (local.get $t))))
    (local.get $t))

  (func $frame (param $d i32) (result i32)
    (i32.add (global.get $FRAMES) (i32.mul (local.get $d) (global.get $FRAME))))

  ;; Starts a stream at the root (a file address, or 0 for EMPTY). Returns 0, NEED or BAIL.
  (func (export "streamStart") (param $root i32) (result i32)
    (local $r i32)
    (global.set $bailDepth (i32.const -1))
    (local.set $r (call $decode (call $frame (i32.const 0)) (local.get $root)))
    (if (local.get $r) (then (return (local.get $r))))
    (i32.store offset=16 (call $frame (i32.const 0)) (i32.const -1))
    (i64.store offset=40 (call $frame (i32.const 0)) (i64.const 0))
    (i32.store offset=36 (call $frame (i32.const 0)) (i32.const 0))
    (global.set $depth (i32.const 0))
    (i32.const 0))

  ;; Positions a stream on the `len` bytes at KEYIN (a prefix search, fastWalk.ts): frames along the
  ;; prefix from the root, each with its transitions spent, so the stream that follows walks the
  ;; subtree under the prefix and ends there. `resume` 1 goes on from $depth after a NEED, as `get`
  ;; does. Returns 0 (positioned, or $depth −1 when no key starts with the prefix), NEED or BAIL
  ;; ($bailDepth −1: the caller walks the search from the start in TypeScript, no key given yet).
  (func (export "seek") (param $root i32) (param $len i32) (param $resume i32) (result i32)
    (local $d i32) (local $f i32) (local $i i32) (local $n i32) (local $b i32) (local $r i32) (local $t i32)
    (local $ins i32) (local $c i32)
    (global.set $bailDepth (i32.const -1))
    (if (i32.eqz (local.get $resume)) (then (global.set $depth (i32.const -1))))
    (if (i32.lt_s (global.get $depth) (i32.const 0))
      (then
        (local.set $f (call $frame (i32.const 0)))
        (local.set $r (call $decode (local.get $f) (local.get $root)))
        (if (local.get $r) (then (return (local.get $r))))
        (i64.store offset=40 (local.get $f) (i64.const 0))
        (global.set $depth (i32.const 0))))
    (loop $down
      (local.set $d (global.get $depth))
      (local.set $f (call $frame (local.get $d)))
      (if (i32.ge_u (local.get $d) (local.get $len))
        (then
          (i32.store offset=16 (local.get $f) (i32.const -1))
          (return (i32.const 0))))
      (local.set $b (i32.load8_u (i32.add (global.get $KEYIN) (local.get $d))))
      (local.set $n (i32.load offset=12 (local.get $f)))
      ;; The transition on b: a one-transition node's input is in the frame; an AnyTrans node's
      ;; inputs are sorted, so the scan stops at the first one not below b.
      (local.set $i (i32.const 0))
      (local.set $c (i32.const -1))
      (if (i32.lt_u (i32.load offset=20 (local.get $f)) (i32.const 2))
        (then (local.set $c (i32.load offset=8 (local.get $f))))
        (else
          (if (i32.eq (i32.load offset=20 (local.get $f)) (i32.const 2))
            (then
              (local.set $t (call $window (i32.load (local.get $f))))
              (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (return (i32.const 2))))
              (local.set $ins (i32.add (local.get $t) (i32.load offset=8 (local.get $f))))
              (block $found
                (loop $scan
                  (br_if $found (i32.ge_s (local.get $i) (local.get $n)))
                  (local.set $c (i32.load8_u (i32.sub (local.get $ins) (local.get $i))))
                  (br_if $found (i32.ge_u (local.get $c) (local.get $b)))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (br $scan)))))))
      ;; No transition on b: no key starts with the prefix.
      (if (i32.or (i32.ge_s (local.get $i) (local.get $n)) (i32.ne (local.get $c) (local.get $b)))
        (then
          (global.set $depth (i32.const -1))
          (return (i32.const 0))))
      (local.set $r (call $trans (local.get $f) (local.get $i)))
      (if (local.get $r) (then (return (local.get $r))))
      (local.set $c (i32.add (local.get $f) (global.get $FRAME)))
      (local.set $r (call $decode (local.get $c) (global.get $tTarget)))
      (if (local.get $r) (then (return (local.get $r))))
      (i32.store8 (local.get $d) (local.get $b))
      (i64.store offset=40 (local.get $c) (i64.add (i64.load offset=40 (local.get $f)) (global.get $tOut)))
      (i32.store offset=16 (local.get $f) (i32.load offset=12 (local.get $f)))
      (global.set $depth (i32.add (local.get $d) (i32.const 1)))
      (br $down))
    (unreachable))

  ;; Walks on for at most `budget` steps; every key (of a search: every key its automaton matches)
  ;; reaches the host's emit(depth, value low, value high, final node address, its start, DFA
  ;; state), which returns 0 to pause. Keys come in byte order.
  (func (export "stream") (param $budget i32) (result i32)
    (local $d i32) (local $f i32) (local $i i32) (local $c i32) (local $r i32) (local $v i64) (local $s i32)
    (local $t i32) (local $ins i32)
    (block $done
      (loop $step
        (local.set $d (global.get $depth))
        (br_if $done (i32.lt_s (local.get $d) (i32.const 0)))
        (local.set $budget (i32.sub (local.get $budget) (i32.const 1)))
        (if (i32.lt_s (local.get $budget) (i32.const 0)) (then (return (i32.const 4))))
        (local.set $f (i32.add (global.get $FRAMES) (i32.mul (local.get $d) (global.get $FRAME))))
        (local.set $i (i32.load offset=16 (local.get $f)))
        (if (i32.lt_s (local.get $i) (i32.const 0))
          (then
            (i32.store offset=16 (local.get $f) (i32.const 0))
            (if (i32.and (i32.ne (i32.load offset=32 (local.get $f)) (i32.const 0))
                  (i32.or (i32.eqz (global.get $dfa))
                    (i32.load8_u (i32.add (global.get $FLAGS) (i32.load offset=36 (local.get $f))))))
              (then
                (local.set $v (i64.add (i64.load offset=40 (local.get $f)) (i64.load offset=48 (local.get $f))))
                (if (i32.eqz
                      (call $emit (local.get $d) (i32.wrap_i64 (local.get $v)) (i32.wrap_i64 (i64.shr_u (local.get $v) (i64.const 32)))
                        (i32.load (local.get $f)) (i32.load offset=4 (local.get $f)) (i32.load offset=36 (local.get $f))))
                  (then (return (i32.const 1))))))
            (br $step)))
        (if (i32.ge_s (local.get $i) (i32.load offset=12 (local.get $f)))
          (then
            (global.set $depth (i32.sub (local.get $d) (i32.const 1)))
            (br $step)))
        ;; A search skips the transitions of an AnyTrans node its automaton rules out by their input
        ;; alone, without decoding their targets and outputs.
        (if (i32.and (i32.ne (global.get $dfa) (i32.const 0)) (i32.eq (i32.load offset=20 (local.get $f)) (i32.const 2)))
          (then
            (local.set $t (call $window (i32.load (local.get $f))))
            (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (return (i32.const 2))))
            (local.set $ins (i32.add (local.get $t) (i32.load offset=8 (local.get $f))))
            (block $live
              (loop $skip
                (br_if $live
                  (i32.ne (call $next (i32.load offset=36 (local.get $f)) (i32.load8_u (i32.sub (local.get $ins) (local.get $i)))) (i32.const -2)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br_if $skip (i32.lt_s (local.get $i) (i32.load offset=12 (local.get $f))))
                (i32.store offset=16 (local.get $f) (local.get $i))
                (br $step)))
            (i32.store offset=16 (local.get $f) (local.get $i))))
        (local.set $r (call $trans (local.get $f) (local.get $i)))
        (if (i32.eq (local.get $r) (i32.const 3))
          (then
            ;; $tInput is set before anything can fail in `trans`, except for a OneTrans node
            ;; whose input is in the frame; both are right here.
            (global.set $bailDepth (local.get $d))
            (global.set $bailInput (global.get $tInput))))
        (if (local.get $r) (then (return (local.get $r))))
        (if (i32.ge_s (i32.add (local.get $d) (i32.const 1)) (global.get $MAX_DEPTH))
          (then
            (global.set $bailDepth (local.get $d))
            (global.set $bailInput (global.get $tInput))
            (return (i32.const 3))))
        (if (global.get $dfa)
          (then
            (local.set $s (call $next (i32.load offset=36 (local.get $f)) (global.get $tInput)))
            (if (i32.eq (local.get $s) (i32.const -3))
              (then
                (global.set $bailDepth (local.get $d))
                (global.set $bailInput (global.get $tInput))
                (return (i32.const 3))))
            (if (i32.lt_s (local.get $s) (i32.const 0))
              (then
                (i32.store offset=16 (local.get $f) (i32.add (local.get $i) (i32.const 1)))
                (br $step)))))
        (local.set $c (i32.add (local.get $f) (global.get $FRAME)))
        (local.set $r (call $decode (local.get $c) (global.get $tTarget)))
        (if (i32.eq (local.get $r) (i32.const 3))
          (then
            (global.set $bailDepth (local.get $d))
            (global.set $bailInput (global.get $tInput))))
        (if (local.get $r) (then (return (local.get $r))))
        (i32.store8 (local.get $d) (global.get $tInput))
        (i64.store offset=40 (local.get $c) (i64.add (i64.load offset=40 (local.get $f)) (global.get $tOut)))
        (i32.store offset=16 (local.get $c) (i32.const -1))
        (i32.store offset=36 (local.get $c) (local.get $s))
        (i32.store offset=16 (local.get $f) (i32.add (local.get $i) (i32.const 1)))
        (global.set $depth (i32.add (local.get $d) (i32.const 1)))
        (br $step)))
    (i32.const 0))
