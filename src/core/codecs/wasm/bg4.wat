;; Xet's byte grouping by 4 (spec xorb.md section 3.3) in both directions, with 128-bit SIMD, for
;; src/core/formats/xorb/bg4.ts. Compiled to bg4.wasm by `node src/core/codecs/wasm/assemble.mjs`.
;;
;; Why hand-written: the TypeScript loops moved 200-570 MB/s (18 ms of the 64 MiB xorb verify
;; for 3.4 MB of BG4 chunks); sixteen 4-byte words per step of byte shuffles is what the data
;; layout asks for, and no package does it.
;;
;; Both functions take n bytes at `src` and write n bytes at `dst` (the ranges must not overlap).
;; Group k holds floor(n/4) bytes plus one when k < n mod 4; the 1 to 3 trailing bytes of a chunk sit
;; at the end of the first groups.
(module
  (memory (export "memory") 4)

  ;; Where group 1, 2 or 3 starts in the grouped bytes of an n-byte chunk.
  (func $groupStart (param $n i32) (param $k i32) (result i32)
    (i32.add
      (i32.mul (i32.shr_u (local.get $n) (i32.const 2)) (local.get $k))
      ;; one extra byte for each earlier group k' < n mod 4
      (select (i32.and (local.get $n) (i32.const 3)) (local.get $k)
        (i32.lt_u (i32.and (local.get $n) (i32.const 3)) (local.get $k)))))

  ;; g0 | g1 | g2 | g3 at src -> chunk bytes at dst.
  (func (export "regroup") (param $src i32) (param $n i32) (param $dst i32)
    (local $q i32) (local $i i32) (local $g1 i32) (local $g2 i32) (local $g3 i32) (local $o i32)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128) (local $ab v128) (local $cd v128)
    (local.set $q (i32.shr_u (local.get $n) (i32.const 2)))
    (local.set $g1 (i32.add (local.get $src) (call $groupStart (local.get $n) (i32.const 1))))
    (local.set $g2 (i32.add (local.get $src) (call $groupStart (local.get $n) (i32.const 2))))
    (local.set $g3 (i32.add (local.get $src) (call $groupStart (local.get $n) (i32.const 3))))
    (local.set $o (local.get $dst))
    ;; Sixteen words per step: interleave a with b and c with d byte by byte, then the two
    ;; results two bytes by two.
    (block $done
      (loop $wide
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $q)))
        (local.set $a (v128.load (i32.add (local.get $src) (local.get $i))))
        (local.set $b (v128.load (i32.add (local.get $g1) (local.get $i))))
        (local.set $c (v128.load (i32.add (local.get $g2) (local.get $i))))
        (local.set $d (v128.load (i32.add (local.get $g3) (local.get $i))))
        (local.set $ab (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $a) (local.get $b)))
        (local.set $cd (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $c) (local.get $d)))
        (v128.store (local.get $o) (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $ab) (local.get $cd)))
        (v128.store offset=16 (local.get $o) (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $ab) (local.get $cd)))
        (local.set $ab (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $a) (local.get $b)))
        (local.set $cd (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $c) (local.get $d)))
        (v128.store offset=32 (local.get $o) (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $ab) (local.get $cd)))
        (v128.store offset=48 (local.get $o) (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $ab) (local.get $cd)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (local.set $o (i32.add (local.get $o) (i32.const 64)))
        (br $wide)))
    (block $done
      (loop $word
        (br_if $done (i32.ge_u (local.get $i) (local.get $q)))
        (i32.store8 (local.get $o) (i32.load8_u (i32.add (local.get $src) (local.get $i))))
        (i32.store8 offset=1 (local.get $o) (i32.load8_u (i32.add (local.get $g1) (local.get $i))))
        (i32.store8 offset=2 (local.get $o) (i32.load8_u (i32.add (local.get $g2) (local.get $i))))
        (i32.store8 offset=3 (local.get $o) (i32.load8_u (i32.add (local.get $g3) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $o (i32.add (local.get $o) (i32.const 4)))
        (br $word)))
    ;; The trailing bytes: the last byte of groups 0, 1, 2 in turn.
    (if (i32.ge_u (i32.and (local.get $n) (i32.const 3)) (i32.const 1))
      (then (i32.store8 (local.get $o) (i32.load8_u (i32.add (local.get $src) (local.get $q))))))
    (if (i32.ge_u (i32.and (local.get $n) (i32.const 3)) (i32.const 2))
      (then (i32.store8 offset=1 (local.get $o) (i32.load8_u (i32.add (local.get $g1) (local.get $q))))))
    (if (i32.ge_u (i32.and (local.get $n) (i32.const 3)) (i32.const 3))
      (then (i32.store8 offset=2 (local.get $o) (i32.load8_u (i32.add (local.get $g2) (local.get $q)))))))

  ;; Chunk bytes at src -> g0 | g1 | g2 | g3 at dst.
  (func (export "split") (param $src i32) (param $n i32) (param $dst i32)
    (local $q i32) (local $i i32) (local $g1 i32) (local $g2 i32) (local $g3 i32) (local $s i32)
    (local $lo v128) (local $hi v128) (local $lo2 v128) (local $hi2 v128)
    (local.set $q (i32.shr_u (local.get $n) (i32.const 2)))
    (local.set $g1 (i32.add (local.get $dst) (call $groupStart (local.get $n) (i32.const 1))))
    (local.set $g2 (i32.add (local.get $dst) (call $groupStart (local.get $n) (i32.const 2))))
    (local.set $g3 (i32.add (local.get $dst) (call $groupStart (local.get $n) (i32.const 3))))
    (local.set $s (local.get $src))
    ;; Sixteen words per step: bytes 0 and 1 of eight words, and bytes 2 and 3, from each half,
    ;; then the halves joined per group.
    (block $done
      (loop $wide
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $q)))
        (local.set $lo (i8x16.shuffle 0 4 8 12 16 20 24 28 1 5 9 13 17 21 25 29 (v128.load (local.get $s)) (v128.load offset=16 (local.get $s))))
        (local.set $hi (i8x16.shuffle 2 6 10 14 18 22 26 30 3 7 11 15 19 23 27 31 (v128.load (local.get $s)) (v128.load offset=16 (local.get $s))))
        (local.set $lo2 (i8x16.shuffle 0 4 8 12 16 20 24 28 1 5 9 13 17 21 25 29 (v128.load offset=32 (local.get $s)) (v128.load offset=48 (local.get $s))))
        (local.set $hi2 (i8x16.shuffle 2 6 10 14 18 22 26 30 3 7 11 15 19 23 27 31 (v128.load offset=32 (local.get $s)) (v128.load offset=48 (local.get $s))))
        (v128.store (i32.add (local.get $dst) (local.get $i)) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $lo) (local.get $lo2)))
        (v128.store (i32.add (local.get $g1) (local.get $i)) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $lo) (local.get $lo2)))
        (v128.store (i32.add (local.get $g2) (local.get $i)) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $hi) (local.get $hi2)))
        (v128.store (i32.add (local.get $g3) (local.get $i)) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $hi) (local.get $hi2)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (local.set $s (i32.add (local.get $s) (i32.const 64)))
        (br $wide)))
    (block $done
      (loop $word
        (br_if $done (i32.ge_u (local.get $i) (local.get $q)))
        (i32.store8 (i32.add (local.get $dst) (local.get $i)) (i32.load8_u (local.get $s)))
        (i32.store8 (i32.add (local.get $g1) (local.get $i)) (i32.load8_u offset=1 (local.get $s)))
        (i32.store8 (i32.add (local.get $g2) (local.get $i)) (i32.load8_u offset=2 (local.get $s)))
        (i32.store8 (i32.add (local.get $g3) (local.get $i)) (i32.load8_u offset=3 (local.get $s)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $s (i32.add (local.get $s) (i32.const 4)))
        (br $word)))
    (if (i32.ge_u (i32.and (local.get $n) (i32.const 3)) (i32.const 1))
      (then (i32.store8 (i32.add (local.get $dst) (local.get $q)) (i32.load8_u (local.get $s)))))
    (if (i32.ge_u (i32.and (local.get $n) (i32.const 3)) (i32.const 2))
      (then (i32.store8 (i32.add (local.get $g1) (local.get $q)) (i32.load8_u offset=1 (local.get $s)))))
    (if (i32.ge_u (i32.and (local.get $n) (i32.const 3)) (i32.const 3))
      (then (i32.store8 (i32.add (local.get $g2) (local.get $q)) (i32.load8_u offset=2 (local.get $s))))))
)
