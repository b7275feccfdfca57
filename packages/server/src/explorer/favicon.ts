/**
 * `/favicon.ico`: a 16×16 horseshoe, drawn from the pixel map below into an ICO file (one 32-bit
 * BMP image with alpha), so the repository holds no binary and browsers stop asking in vain.
 */

const SHOE = [
  "................",
  "...##......##...",
  "..###......###..",
  "..##........##..",
  ".###........###.",
  ".##..........##.",
  ".##..........##.",
  ".##..........##.",
  ".##..........##.",
  ".###........###.",
  "..##........##..",
  "..###......###..",
  "...####..####...",
  "....########....",
  "......####......",
  "................"
]

const SIZE = 16
/** Navy (#14365d), as blue, green, red, alpha. */
const INK = [0x5d, 0x36, 0x14, 0xff] as const

export const faviconIco = (): Uint8Array => {
  const pixels = SIZE * SIZE * 4
  const mask = SIZE * 4 // one bit per pixel, rows padded to 32 bits: all zero (alpha decides)
  const image = 40 + pixels + mask
  const bytes = new Uint8Array(6 + 16 + image)
  const view = new DataView(bytes.buffer)
  // ICONDIR
  view.setUint16(2, 1, true)
  view.setUint16(4, 1, true)
  // ICONDIRENTRY
  bytes[6] = SIZE
  bytes[7] = SIZE
  view.setUint16(10, 1, true)
  view.setUint16(12, 32, true)
  view.setUint32(14, image, true)
  view.setUint32(18, 22, true)
  // BITMAPINFOHEADER: the height counts the image and its mask
  view.setUint32(22, 40, true)
  view.setInt32(26, SIZE, true)
  view.setInt32(30, SIZE * 2, true)
  view.setUint16(34, 1, true)
  view.setUint16(36, 32, true)
  view.setUint32(42, pixels + mask, true)
  // Pixels, bottom row first
  let at = 62
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) {
      if (SHOE[y][x] === "#") bytes.set(INK, at)
      at += 4
    }
  }
  return bytes
}
