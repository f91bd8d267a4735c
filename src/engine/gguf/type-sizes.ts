/**
 * Bytes per block and elements per block of each ggml tensor type (ggml.c `type_traits`), so the
 * header reader can tell how many bytes the tensor data needs and spot a truncated download.
 */
export const GGML_TYPE_SIZES: Record<number, { blockSize: number; typeSize: number }> = {
  0: { blockSize: 1, typeSize: 4 }, // F32
  1: { blockSize: 1, typeSize: 2 }, // F16
  2: { blockSize: 32, typeSize: 18 }, // Q4_0
  3: { blockSize: 32, typeSize: 20 }, // Q4_1
  6: { blockSize: 32, typeSize: 22 }, // Q5_0
  7: { blockSize: 32, typeSize: 24 }, // Q5_1
  8: { blockSize: 32, typeSize: 34 }, // Q8_0
  9: { blockSize: 32, typeSize: 36 }, // Q8_1
  10: { blockSize: 256, typeSize: 84 }, // Q2_K
  11: { blockSize: 256, typeSize: 110 }, // Q3_K
  12: { blockSize: 256, typeSize: 144 }, // Q4_K
  13: { blockSize: 256, typeSize: 176 }, // Q5_K
  14: { blockSize: 256, typeSize: 210 }, // Q6_K
  15: { blockSize: 256, typeSize: 292 }, // Q8_K
  16: { blockSize: 256, typeSize: 66 }, // IQ2_XXS
  17: { blockSize: 256, typeSize: 74 }, // IQ2_XS
  18: { blockSize: 256, typeSize: 98 }, // IQ3_XXS
  19: { blockSize: 256, typeSize: 50 }, // IQ1_S
  20: { blockSize: 32, typeSize: 18 }, // IQ4_NL
  21: { blockSize: 256, typeSize: 110 }, // IQ3_S
  22: { blockSize: 256, typeSize: 82 }, // IQ2_S
  23: { blockSize: 256, typeSize: 136 }, // IQ4_XS
  24: { blockSize: 1, typeSize: 1 }, // I8
  25: { blockSize: 1, typeSize: 2 }, // I16
  26: { blockSize: 1, typeSize: 4 }, // I32
  27: { blockSize: 1, typeSize: 8 }, // I64
  28: { blockSize: 1, typeSize: 8 }, // F64
  29: { blockSize: 256, typeSize: 56 }, // IQ1_M
  30: { blockSize: 1, typeSize: 2 }, // BF16
  34: { blockSize: 256, typeSize: 54 }, // TQ1_0
  35: { blockSize: 256, typeSize: 66 }, // TQ2_0
  39: { blockSize: 32, typeSize: 17 }, // MXFP4
};
