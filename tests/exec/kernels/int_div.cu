// Integer division and remainder over divisors of every magnitude: the divisor is a random
// word shifted right by a random amount (so 1-bit to full-width divisors all occur, against
// full-width dividends), signed and unsigned, 32 and 64 bits, as inline PTX div/rem. The
// reciprocal-based sequences must be exact for every input; a zero divisor gives all ones (as
// ptxas's code does). Edge pairs (INT_MIN / -1, 0, +-1, ...) are covered by int32_ops and
// int64_ops.
extern "C" __global__ void int_div(const unsigned long long* a, const unsigned long long* b,
                                   const unsigned* c, const unsigned* d, const unsigned* e,
                                   unsigned long long* out, unsigned* out32, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i];
  unsigned s = c[i], x32 = d[i], y32 = e[i];
  unsigned long long* o = out + i * 4;
  unsigned* q = out32 + i * 4;
  // %4 = x, %5 = y, %6 = s: divisor y >> (s & 63), logical for .u64 and arithmetic for .s64.
  asm volatile("{ .reg .b64 dv; .reg .b32 k; and.b32 k, %6, 63; shr.u64 dv, %5, k;"
               " div.u64 %0, %4, dv; rem.u64 %1, %4, dv; shr.s64 dv, %5, k;"
               " div.s64 %2, %4, dv; rem.s64 %3, %4, dv; }"
               : "=l"(o[0]), "=l"(o[1]), "=l"(o[2]), "=l"(o[3]) : "l"(x), "l"(y), "r"(s));
  // %4 = x32, %5 = y32, %6 = s: divisor y32 >> ((s >> 8) & 31).
  asm volatile("{ .reg .b32 dv, k; shr.u32 k, %6, 8; and.b32 k, k, 31; shr.u32 dv, %5, k;"
               " div.u32 %0, %4, dv; rem.u32 %1, %4, dv; shr.s32 dv, %5, k;"
               " div.s32 %2, %4, dv; rem.s32 %3, %4, dv; }"
               : "=r"(q[0]), "=r"(q[1]), "=r"(q[2]), "=r"(q[3]) : "r"(x32), "r"(y32), "r"(s));
}
