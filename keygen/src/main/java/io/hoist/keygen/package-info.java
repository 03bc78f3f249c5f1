/** Key generation (secret, public, relinearization and rotation keys) — built in the CKKS issue. */
package io.hoist.keygen;
