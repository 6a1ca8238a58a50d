;; The BEN frame header hop (src/core/formats/ben/headerWalk.ts `hopFrames`) inside WebAssembly
;; memory, for src/core/formats/ben/wasmHop.ts. Compiled to benhop.wasm by
;; `node src/core/codecs/wasm/assemble.mjs` (wabt); a unit test checks that the committed .wasm is
;; this file's compilation.
;;
;; Why hand-written: seeking or counting in a 2 GB BEN hops over ~11 M frame headers, and the
;; TypeScript loop cost about twice the time a bare WebAssembly loop does per frame (issue 18).
;;
;; It takes exactly the frames `hopFrames` takes and stops where it stops, with the same reasons;
;; anything else (a bad tag, bits or count, an end past the stream's) is left to the caller, which
;; reads that frame with `readFrame` and so reports the same located errors. It never reads before
;; `p` or at or past `limit`. Every comparison is unsigned: the caller clamps `streamLimit` and
;; `room` to 2^32 - 1, which turns at most a frame longer than 4 GiB into a SLOW one.
(module
  (memory (export "memory") 1)

  ;; Hops from the frame header at `p` over the bytes [.., limit) of a stream that ends at
  ;; `streamLimit` (both in memory addresses), taking at most `maxFrames` frames and `room`
  ;; samples. `mode`: 1 TwoDelta (a tag byte before each header), 2 a repeat count after each
  ;; payload (MkvChain, TwoDelta), 4 the frame at `p` is the stream's first (no delta there).
  ;; Returns 0 at the frame that would exceed `room`, 1 at `streamLimit`, 2 where the next header
  ;; (or count) lies past `limit`, 3 at a frame left to the caller, 4 after `maxFrames` frames.
  ;; Leaves at address 0 (i32 each): where it stopped, frames and samples hopped, and the latest
  ;; snapshot hopped (TwoDelta): its frame number from the start of this call (-1: none), its
  ;; address and the samples before it.
  (func (export "hop") (param $p i32) (param $limit i32) (param $streamLimit i32) (param $maxFrames i32) (param $room i32) (param $mode i32) (result i32)
    (local $frames i32) (local $samples i32) (local $q i32) (local $tag i32) (local $bits i32) (local $payload i32)
    (local $end64 i64) (local $end i32) (local $count i32) (local $result i32) (local $cut i32)
    (local $twoDelta i32) (local $hasCount i32) (local $first i32)
    (local $anchor i32) (local $anchorP i32) (local $anchorSamples i32)
    (local.set $twoDelta (i32.and (local.get $mode) (i32.const 1)))
    (local.set $hasCount (i32.and (local.get $mode) (i32.const 2)))
    (local.set $first (i32.and (i32.shr_u (local.get $mode) (i32.const 2)) (i32.const 1)))
    (local.set $anchor (i32.const -1))
    ;; A header cut by `limit`: the caller's to read when the stream ends there, else a refill.
    (local.set $cut (select (i32.const 3) (i32.const 2) (i32.ge_u (local.get $limit) (local.get $streamLimit))))
    (block $done
      (loop $frame
        (local.set $result (i32.const 4))
        (br_if $done (i32.ge_u (local.get $frames) (local.get $maxFrames)))
        (local.set $result (i32.const 1))
        (br_if $done (i32.ge_u (local.get $p) (local.get $streamLimit)))
        (local.set $result (local.get $cut))
        ;; A Standard frame's payload may end past `limit`: nothing of the next header is here.
        (br_if $done (i32.gt_u (local.get $p) (local.get $limit)))
        (local.set $q (local.get $p))
        (local.set $tag (i32.const 0))
        (if (local.get $twoDelta)
          (then
            (br_if $done (i32.ge_u (local.get $q) (local.get $limit)))
            (local.set $tag (i32.load8_u (local.get $q)))
            (local.set $result (i32.const 3))
            (br_if $done (i32.gt_u (local.get $tag) (i32.const 1)))
            ;; A delta first has no snapshot to apply to.
            (br_if $done (i32.and (local.get $tag) (i32.and (local.get $first) (i32.eqz (local.get $frames)))))
            (local.set $result (local.get $cut))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))))
        (if (local.get $tag)
          (then
            ;; Delta: pair_a u16, pair_b u16, lbits u8, n_bytes u32.
            (br_if $done (i32.lt_u (i32.sub (local.get $limit) (local.get $q)) (i32.const 9)))
            (local.set $result (i32.const 3))
            (br_if $done (i32.gt_u (i32.sub (i32.load8_u offset=4 (local.get $q)) (i32.const 1)) (i32.const 15)))
            (local.set $q (i32.add (local.get $q) (i32.const 5))))
          (else
            ;; Frame or snapshot: vbits u8, lbits u8, n_bytes u32.
            (br_if $done (i32.lt_u (i32.sub (local.get $limit) (local.get $q)) (i32.const 6)))
            (local.set $result (i32.const 3))
            (br_if $done (i32.gt_u (i32.sub (i32.load8_u (local.get $q)) (i32.const 1)) (i32.const 15)))
            (br_if $done (i32.gt_u (i32.sub (i32.load8_u offset=1 (local.get $q)) (i32.const 1)) (i32.const 15)))
            (local.set $q (i32.add (local.get $q) (i32.const 2)))))
        ;; n_bytes, big-endian.
        (local.set $payload
          (i32.or
            (i32.or (i32.shl (i32.load8_u (local.get $q)) (i32.const 24)) (i32.shl (i32.load8_u offset=1 (local.get $q)) (i32.const 16)))
            (i32.or (i32.shl (i32.load8_u offset=2 (local.get $q)) (i32.const 8)) (i32.load8_u offset=3 (local.get $q)))))
        (local.set $end64
          (i64.add
            (i64.add (i64.extend_i32_u (local.get $q)) (i64.extend_i32_u (local.get $payload)))
            (i64.extend_i32_u (i32.add (i32.const 4) (local.get $hasCount)))))
        (br_if $done (i64.gt_u (local.get $end64) (i64.extend_i32_u (local.get $streamLimit))))
        (local.set $end (i32.wrap_i64 (local.get $end64)))
        (local.set $count (i32.const 1))
        (if (local.get $hasCount)
          (then
            (local.set $result (i32.const 2))
            (br_if $done (i32.gt_u (local.get $end) (local.get $limit)))
            (local.set $count
              (i32.or (i32.shl (i32.load8_u (i32.sub (local.get $end) (i32.const 2))) (i32.const 8)) (i32.load8_u (i32.sub (local.get $end) (i32.const 1)))))
            (local.set $result (i32.const 3))
            (br_if $done (i32.eqz (local.get $count)))))
        (local.set $result (i32.const 0))
        (br_if $done (i32.gt_u (local.get $count) (local.get $room)))
        (local.set $room (i32.sub (local.get $room) (local.get $count)))
        (if (i32.and (local.get $twoDelta) (i32.eqz (local.get $tag)))
          (then
            (local.set $anchor (local.get $frames))
            (local.set $anchorP (local.get $p))
            (local.set $anchorSamples (local.get $samples))))
        (local.set $frames (i32.add (local.get $frames) (i32.const 1)))
        (local.set $samples (i32.add (local.get $samples) (local.get $count)))
        (local.set $p (local.get $end))
        (br $frame)))
    (i32.store (i32.const 0) (local.get $p))
    (i32.store (i32.const 4) (local.get $frames))
    (i32.store (i32.const 8) (local.get $samples))
    (i32.store (i32.const 12) (local.get $anchor))
    (i32.store (i32.const 16) (local.get $anchorP))
    (i32.store (i32.const 20) (local.get $anchorSamples))
    (local.get $result)))
