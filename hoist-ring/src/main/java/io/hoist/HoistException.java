package io.hoist;

/**
 * The base of every typed error Hoist throws for bad input: wrong parameters, operands, files,
 * shapes, sizes or keys. Each subclass names what is wrong in its message. It extends
 * {@link IllegalArgumentException} because every one of them is a caller's argument the library
 * refuses, never a failure of the library itself.
 */
public class HoistException extends IllegalArgumentException {
    public HoistException(String message) {
        super(message);
    }
}
