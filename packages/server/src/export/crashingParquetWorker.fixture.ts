/** A Parquet thread that dies (exits with code 3) before it writes anything. */
process.exit(3)
