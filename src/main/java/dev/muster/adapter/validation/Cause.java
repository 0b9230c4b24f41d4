package dev.muster.adapter.validation;

/**
 * One broken API invariant, as a Kubernetes {@code StatusCause}: the cause reason ({@code FieldValueRequired},
 * ...), the field path from the request root and a message. {@code message} is the detail when there is one
 * ("must have at most 8 items"), else the kind of error with the offending value ({@code Duplicate value: "n1"}),
 * the way the API server words it. {@code summary} is the full API-server rendering ({@code <field>: <kind>: <value>:
 * <detail>}) used to build the Status message.
 */
public record Cause(String reason, String field, String message, String summary) {
    public static final String REQUIRED = "FieldValueRequired";
    public static final String INVALID = "FieldValueInvalid";
    public static final String DUPLICATE = "FieldValueDuplicate";
    public static final String NOT_SUPPORTED = "FieldValueNotSupported";
    public static final String FORBIDDEN = "FieldValueForbidden";
    public static final String TOO_MANY = "FieldValueTooMany";
    public static final String NOT_FOUND = "FieldValueNotFound";
}
