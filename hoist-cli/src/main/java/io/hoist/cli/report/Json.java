package io.hoist.cli.report;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CLI's JSON output, written by Jackson: insertion-ordered objects of numbers (full precision),
 * strings, booleans, arrays, maps and records. Non-finite doubles become null (JSON has no NaN).
 */
public final class Json {
    public static final ObjectMapper MAPPER =
            JsonMapper.builder().addModule(nonFiniteAsNull()).build();

    /** Doubles, boxed or not, anywhere in a value (records' fields too): NaN and the infinities as null. */
    private static SimpleModule nonFiniteAsNull() {
        StdSerializer<Double> s = new StdSerializer<>(Double.class) {
            @Override
            public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
                if (Double.isFinite(v)) g.writeNumber(v);
                else g.writeNull();
            }
        };
        StdSerializer<double[]> a = new StdSerializer<>(double[].class) {
            @Override
            public void serialize(double[] v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeStartArray(v, v.length);
                for (double x : v) s.serialize(x, g, p);
                g.writeEndArray();
            }
        };
        SimpleModule m = new SimpleModule("non-finite doubles as null");
        m.addSerializer(Double.class, s);
        m.addSerializer(Double.TYPE, s);
        m.addSerializer(double[].class, a);
        return m;
    }

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
