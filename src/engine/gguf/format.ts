/**
 * Constants of the GGUF v3 file format (llama.cpp's `gguf.h`), shared by the header reader and the
 * test-model writer so both agree byte for byte.
 */

/** "GGUF" read as a little-endian uint32. */
export const GGUF_MAGIC = 0x46554747;

/** Tensor data starts at a multiple of this unless `general.alignment` says otherwise. */
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** Type tag of a metadata value. */
export const GgufValueType = {
  Uint8: 0,
  Int8: 1,
  Uint16: 2,
  Int16: 3,
  Uint32: 4,
  Int32: 5,
  Float32: 6,
  Bool: 7,
  String: 8,
  Array: 9,
  Uint64: 10,
  Int64: 11,
  Float64: 12,
} as const;

/** Element type of a tensor (ggml_type); only the two the writer emits are named. */
export const GgmlType = {
  F32: 0,
  F16: 1,
} as const;

/** `general.file_type` → the quantization name users know ("Q4_K_M"). */
export const FILE_TYPE_NAMES: Record<number, string> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  4: "Q4_1_SOME_F16",
  7: "Q8_0",
  8: "Q5_0",
  9: "Q5_1",
  10: "Q2_K",
  11: "Q3_K_S",
  12: "Q3_K_M",
  13: "Q3_K_L",
  14: "Q4_K_S",
  15: "Q4_K_M",
  16: "Q5_K_S",
  17: "Q5_K_M",
  18: "Q6_K",
  19: "IQ2_XXS",
  20: "IQ2_XS",
  21: "Q2_K_S",
  22: "IQ3_XS",
  23: "IQ3_XXS",
  24: "IQ1_S",
  25: "IQ4_NL",
  26: "IQ3_S",
  27: "IQ3_M",
  28: "IQ2_S",
  29: "IQ2_M",
  30: "IQ4_XS",
  31: "IQ1_M",
  32: "BF16",
  36: "TQ1_0",
  37: "TQ2_0",
  38: "MXFP4_MOE",
};

/** Tokenizer token kinds (`tokenizer.ggml.token_type`). */
export const TokenType = {
  Normal: 1,
  Unknown: 2,
  Control: 3,
  UserDefined: 4,
  Unused: 5,
  Byte: 6,
} as const;
