/** The bytes of JSON's syntax (RFC 8259) that the line scanner tells apart. */
export const QUOTE = 34
export const BACKSLASH = 92
export const COLON = 58
export const COMMA = 44
export const OPEN_OBJECT = 123
export const CLOSE_OBJECT = 125
export const OPEN_ARRAY = 91
export const CLOSE_ARRAY = 93
export const MINUS = 45
export const PLUS = 43
export const DOT = 46
export const DIGIT_0 = 48
export const DIGIT_9 = 57

export const isDigit = (c: number): boolean => c >= DIGIT_0 && c <= DIGIT_9
export const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
