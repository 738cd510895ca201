// Package half holds the 16-bit float types of gohalide as Go values:
// Float16 (IEEE 754 binary16: 1 sign bit, 5 exponent bits, 10 fraction
// bits) and BFloat16 (the top half of a float32: 1 sign bit, 8 exponent
// bits, 7 fraction bits). Both are stored as their bit patterns, in a
// uint16, which is what a Buffer of either type holds on every target (the
// CPU path, the GPU emulator and CUDA, where the generated code keeps them
// as unsigned short).
//
// The conversions here are the ones every target computes, bit for bit:
//
//   - To float32 (Float16.ToFloat32, BFloat16.ToFloat32) is exact: every
//     value of either type is a float32. A NaN keeps its sign and its
//     payload (shifted into the high fraction bits) and becomes quiet, as
//     an IEEE conversion makes it (the CPU path carries float values as
//     float64, whose conversion from float32 quiets a NaN too).
//   - From float32 (Float16FromFloat32, BFloat16FromFloat32) rounds to the
//     nearest value, ties to even. Values beyond the largest finite value
//     (65504 for Float16, about 3.39e38 for BFloat16) by half an ulp or
//     more round to infinity; values at or below half the smallest
//     subnormal (2^-25 for Float16) round to a signed zero. A NaN stays a
//     NaN of the same sign, made quiet, with the high bits of its payload.
//   - From float64 (Float16FromFloat64, BFloat16FromFloat64) rounds to
//     float32 first and then to the 16-bit type, as Halide converts to a
//     16-bit float on targets without native support (two roundings: a
//     float64 just above a tie of the 16-bit type may round down).
//
// Arithmetic on these types in a pipeline converts the operands to
// float32, computes in float32 and rounds the result back (see
// docs/design.md); this package only converts.
package half
