package io.hoist.cli.report;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CLI's JSON output, written by Jackson: insertion-ordered objects of numbers (full precision),
 * strings, booleans, arrays, maps and records. Non-finite doubles become null (JSON has no NaN).
 */
public final class Json {
    public static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    /** An insertion-ordered JSON object under construction. */
    public static final class Obj {
        private final Map<String, Object> fields = new LinkedHashMap<>();

        public Obj put(String key, Object value) {
            fields.put(key, value instanceof Double d && !Double.isFinite(d) ? null : value);
            return this;
        }

        @JsonValue
        public Map<String, Object> asMap() {
            return fields;
        }

        @Override
        public String toString() {
            return write(fields);
        }
    }

    public static Obj obj() {
        return new Obj();
    }

    /** Serializes any value Jackson knows (maps, lists, records, arrays, numbers, {@link Obj}). */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value instanceof Obj o ? o.fields : value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }
}
