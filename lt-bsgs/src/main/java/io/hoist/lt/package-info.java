/** Linear transforms (diagonal, BSGS, DH-BSGS, TH-BSGS) — built in the linear-transform issue. */
package io.hoist.lt;
