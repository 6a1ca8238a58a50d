  ;; fstwalk.wat, decoding: a node of the file into a frame, one of its transitions.
  ;; Joined into that module by assemble.mjs: the memory map, globals and imports used here are there.

  ;; A little-endian unsigned integer of `width` (0..8) bytes at memory address p. Reads 8 bytes
  ;; whatever the width: the caller keeps 8 bytes of memory after every slot.
  (func $uint (param $p i32) (param $width i32) (result i64)
    ;; Width 0 would shift by 64, which wasm takes as 0: select 0 instead (no branch to mispredict).
    (select
      (i64.and (i64.load (local.get $p))
               (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $width) (i32.const 3))))))
      (i64.const 0)
      (local.get $width)))

  ;; Memory address minus file address for the window of file address a, or ABSENT (and $need set).
  (func $window (param $a i32) (result i32)
    (local $t i32)
    (local.set $t (i32.load (i32.add (global.get $TABLE) (i32.shl (i32.shr_u (local.get $a) (i32.const 16)) (i32.const 2)))))
    (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (global.set $need (local.get $a))))
    (local.get $t))

  ;; Decodes the node at file address a into frame f. Returns 0, NEED (2) or BAIL (3).
  (func $decode (param $f i32) (param $a i32) (result i32)
    (local $t i32) (local $low i32) (local $state i32) (local $top i32) (local $p i32) (local $code i32)
    (local $n i32) (local $sizes i32) (local $ts i32) (local $os i32) (local $start i32) (local $fb i32)
    (i32.store (local.get $f) (local.get $a))
    (i64.store offset=48 (local.get $f) (i64.const 0))
    (if (i32.eqz (local.get $a))
      (then
        (i32.store offset=4 (local.get $f) (i32.const 0))
        (i32.store offset=12 (local.get $f) (i32.const 0))
        (i32.store offset=20 (local.get $f) (i32.const 3))
        (i32.store offset=32 (local.get $f) (i32.const 1))
        (return (i32.const 0))))
    (if (i32.or (i32.lt_s (local.get $a) (i32.const 16)) (i32.ge_s (local.get $a) (global.get $limit)))
      (then (return (i32.const 3))))
    (local.set $t (call $window (local.get $a)))
    (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (return (i32.const 2))))
    ;; The lowest address this window holds: node bytes below it are outside the node data.
    (local.set $low (i32.sub (i32.shl (i32.shr_u (local.get $a) (i32.const 16)) (i32.const 16)) (i32.const 8192)))
    (if (i32.lt_s (local.get $low) (i32.const 16)) (then (local.set $low (i32.const 16))))
    (local.set $state (i32.load8_u (i32.add (local.get $t) (local.get $a))))
    (local.set $top (i32.shr_u (local.get $state) (i32.const 6)))
    (local.set $p (i32.sub (local.get $a) (i32.const 1)))
    (if (i32.ge_u (local.get $top) (i32.const 2))
      (then
        (local.set $code (i32.and (local.get $state) (i32.const 63)))
        (if (local.get $code)
          (then (i32.store offset=8 (local.get $f) (i32.load8_u (i32.add (global.get $COMMON) (i32.sub (local.get $code) (i32.const 1))))))
          (else
            (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
            (i32.store offset=8 (local.get $f) (i32.load8_u (i32.add (local.get $t) (local.get $p))))
            (local.set $p (i32.sub (local.get $p) (i32.const 1)))))
        (i32.store offset=12 (local.get $f) (i32.const 1))
        (i32.store offset=32 (local.get $f) (i32.const 0))
        (if (i32.eq (local.get $top) (i32.const 3))
          (then
            (local.set $start (i32.add (local.get $p) (i32.const 1)))
            (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
            (i32.store offset=4 (local.get $f) (local.get $start))
            (i32.store offset=20 (local.get $f) (i32.const 0))
            (i32.store offset=24 (local.get $f) (i32.const 0))
            (i32.store offset=28 (local.get $f) (i32.const 0))
            (return (i32.const 0))))
        (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
        (local.set $sizes (i32.load8_u (i32.add (local.get $t) (local.get $p))))
        (local.set $ts (i32.shr_u (local.get $sizes) (i32.const 4)))
        (local.set $os (i32.and (local.get $sizes) (i32.const 15)))
        (if (i32.or (i32.gt_u (local.get $ts) (i32.const 8)) (i32.gt_u (local.get $os) (i32.const 8))) (then (return (i32.const 3))))
        (local.set $start (i32.sub (i32.sub (local.get $p) (local.get $ts)) (local.get $os)))
        (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
        (i32.store offset=4 (local.get $f) (local.get $start))
        (i32.store offset=20 (local.get $f) (i32.const 1))
        (i32.store offset=24 (local.get $f) (local.get $ts))
        (i32.store offset=28 (local.get $f) (local.get $os))
        (return (i32.const 0))))
    ;; AnyTrans
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
    (i32.store offset=8 (local.get $f) (i32.sub (local.get $p) (i32.const 1)))
    (local.set $fb (select (local.get $os) (i32.const 0) (i32.eq (local.get $top) (i32.const 1))))
    (local.set $start
      (i32.sub (local.get $p)
        (i32.add (i32.mul (local.get $n) (i32.add (i32.const 1) (i32.add (local.get $ts) (local.get $os)))) (local.get $fb))))
    (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
    (if (i32.eqz (call $increasing (i32.add (local.get $t) (i32.sub (local.get $p) (i32.const 1))) (local.get $n))) (then (return (i32.const 3))))
    (i32.store offset=4 (local.get $f) (local.get $start))
    (i32.store offset=12 (local.get $f) (local.get $n))
    (i32.store offset=20 (local.get $f) (i32.const 2))
    (i32.store offset=24 (local.get $f) (local.get $ts))
    (i32.store offset=28 (local.get $f) (local.get $os))
    (i32.store offset=32 (local.get $f) (i32.eq (local.get $top) (i32.const 1)))
    (if (local.get $fb)
      (then (i64.store offset=48 (local.get $f) (call $uint (i32.add (local.get $t) (local.get $start)) (local.get $fb)))))
    (i32.const 0))

  ;; 1 when the n inputs running down from memory address ins increase, else 0 (damage node.ts
  ;; names: a seek, which stops at the first input not below its byte, and a stream would disagree).
  (func $increasing (param $ins i32) (param $n i32) (result i32)
    (local $i i32)
    (local.set $i (i32.const 1))
    (block $no
      (loop $inputs
        (if (i32.ge_s (local.get $i) (local.get $n)) (then (return (i32.const 1))))
        (br_if $no (i32.ge_u (i32.load8_u (i32.sub (local.get $ins) (i32.sub (local.get $i) (i32.const 1))))
                             (i32.load8_u (i32.sub (local.get $ins) (local.get $i)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $inputs)))
    (i32.const 0))

  ;; Transition i of the node in frame f into $tInput, $tOut and $tTarget. Returns 0, NEED or BAIL.
  (func $trans (param $f i32) (param $i i32) (result i32)
    (local $t i32) (local $kind i32) (local $start i32) (local $ts i32) (local $os i32) (local $ins i32)
    (local $n i32) (local $delta i64)
    (local.set $kind (i32.load offset=20 (local.get $f)))
    (local.set $start (i32.load offset=4 (local.get $f)))
    (if (i32.eqz (local.get $kind))
      (then
        (global.set $tInput (i32.load offset=8 (local.get $f)))
        (global.set $tOut (i64.const 0))
        (global.set $tTarget (i32.sub (local.get $start) (i32.const 1)))
        (return (select (i32.const 3) (i32.const 0) (i32.lt_s (global.get $tTarget) (i32.const 16))))))
    (local.set $t (call $window (i32.load (local.get $f))))
    (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (return (i32.const 2))))
    (local.set $ts (i32.load offset=24 (local.get $f)))
    (local.set $os (i32.load offset=28 (local.get $f)))
    (if (i32.eq (local.get $kind) (i32.const 1))
      (then
        (global.set $tInput (i32.load offset=8 (local.get $f)))
        (global.set $tOut (call $uint (i32.add (local.get $t) (local.get $start)) (local.get $os)))
        (local.set $delta (call $uint (i32.add (i32.add (local.get $t) (local.get $start)) (local.get $os)) (local.get $ts))))
      (else
        ;; AnyTrans: inputs run downwards from $ins, then the deltas, then the outputs.
        (local.set $ins (i32.load offset=8 (local.get $f)))
        (local.set $n (i32.load offset=12 (local.get $f)))
        (global.set $tInput (i32.load8_u (i32.add (local.get $t) (i32.sub (local.get $ins) (local.get $i)))))
        (local.set $ins (i32.add (local.get $t) (i32.add (i32.sub (local.get $ins) (local.get $n)) (i32.const 1))))
        (local.set $delta (call $uint (i32.sub (local.get $ins) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $ts))) (local.get $ts)))
        (global.set $tOut
          (call $uint
            (i32.sub (i32.sub (local.get $ins) (i32.mul (local.get $n) (local.get $ts))) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $os)))
            (local.get $os)))))
    (if (i64.eqz (local.get $delta))
      (then
        (global.set $tTarget (i32.const 0))
        (return (i32.const 0))))
    ;; A delta past the start of the file, or a target inside the header: node.ts rejects both.
    (if (i64.gt_u (local.get $delta) (i64.extend_i32_u (local.get $start))) (then (return (i32.const 3))))
    (global.set $tTarget (i32.sub (local.get $start) (i32.wrap_i64 (local.get $delta))))
    (select (i32.const 3) (i32.const 0) (i32.lt_s (global.get $tTarget) (i32.const 16))))
