package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import dev.muster.adapter.RequestMutations;
import dev.muster.adapter.RequestMutations.Change;
import dev.muster.adapter.RequestMutations.Variant;
import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every object- and list-valued field of a valid request that uses every kind of object, removed, set to null and
 * given another JSON type ({@link RequestMutations}), sent to {@code /v1/validations} and {@code /v1/decisions} over
 * HTTP and to {@code Decide} over gRPC. Whatever the variant, the answer is the client's: never a 5xx, INTERNAL or
 * UNKNOWN; a 400 only for a wrong type; a 422 whose causes each name a field path with a Kubernetes reason; a 200 only
 * where the change left a valid request: an optional field removed, or a field Muster does not read (then the answer
 * is the one without it). Both REST endpoints agree, and so does gRPC wherever proto3 JSON can carry the variant.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestMutationSweepTest {
    static final Set<String> REASONS = Set.of("FieldValueRequired", "FieldValueInvalid",
            "FieldValueDuplicate", "FieldValueNotSupported", "FieldValueForbidden", "FieldValueTooMany",
            "FieldValueNotFound", "FieldValueTooLong");
    /** A path from the request root: {@code snapshot.pods[3].spec}, {@code podGroups[0]}. */
    static final Pattern FIELD = Pattern.compile("(snapshot|podGroups|options)([.\\[].*)?");
    /** Free-form JSON (a RawExtension): any value is read as it is sent. */
    static final Pattern FREE_FORM = Pattern.compile(".*\\.opaque\\.parameters");

    private ManagedChannel channel;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    /** One surface's answer: its HTTP status (gRPC: 200 for OK, 400 for INVALID_ARGUMENT) and what to compare. */
    record Answer(int status, String body, List<String> fields) {
    }

    static Answer rest(String path, String json) {
        Response r = given().contentType(ContentType.JSON).body(json).when().post(path);
        String body = r.asString();
        List<String> fields = r.statusCode() == 422 ? r.jsonPath().getList("details.causes.field", String.class)
                : List.of();
        return new Answer(r.statusCode(), body, fields);
    }

    /** The gRPC answer, or null when proto3 JSON cannot carry the variant (the client could not send it). */
    private Answer grpc(String json, List<String> failures, Variant v) throws InvalidProtocolBufferException {
        DecideRequest request;
        try {
            request = GrpcRequestMapperTest.parse(json);
        } catch (Exception e) {
            return null;
        }
        try {
            DecisionServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS).decide(request);
            return new Answer(200, "", List.of());
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != Status.Code.INVALID_ARGUMENT) {
                failures.add(v + ": gRPC " + e.getStatus());
                return null;
            }
            return new Answer(400, "", Violations.of(e).stream().map(BadRequest.FieldViolation::getField).toList());
        }
    }

    @Test
    void everyBrokenFieldIsAnsweredAsTheClientsMistakeOnEverySurface() throws Exception {
        JsonNode root = RequestMutations.load("sweep/every-kind.json");
        assertThat(rest("/v1/validations", root.toString()).status()).isEqualTo(200);
        assertThat(rest("/v1/decisions", root.toString()).status()).isEqualTo(200);
        List<Variant> variants = RequestMutations.of(root);
        Map<String, Answer> removed = new HashMap<>();
        List<String> failures = new ArrayList<>();
        Map<Integer, Integer> seen = new HashMap<>();
        int grpcCalls = 0;
        for (Variant v : variants) {
            Answer validation = rest("/v1/validations", v.json());
            Answer decision = rest("/v1/decisions", v.json());
            seen.merge(decision.status(), 1, Integer::sum);
            check(v, validation, decision, removed, failures);
            if (v.change() == Change.REMOVE) {
                removed.put(v.path(), decision);
            }
            Answer g = grpc(v.json(), failures, v);
            if (g != null) {
                grpcCalls++;
                checkGrpc(v, decision, g, failures);
            }
        }
        assertThat(failures).as("variants answered wrongly").isEmpty();
        assertThat(variants).hasSizeGreaterThan(1000);
        assertThat(grpcCalls).isGreaterThan(400);
        assertThat(seen.keySet()).as("statuses seen").containsExactlyInAnyOrder(200, 400, 422);
        assertThat(RequestMutations.paths(root)).contains("snapshot.podGroups[0].metadata",
                "snapshot.hyperNodes[0].spec.members", "snapshot.resourceClaims[0].status.allocation", "options");
    }

    private static void check(Variant v, Answer validation, Answer decision, Map<String, Answer> removed,
                              List<String> failures) {
        int s = decision.status();
        if (validation.status() != s || (s != 200 && !validation.body().equals(decision.body()))) {
            failures.add(v + ": /v1/validations " + validation.status() + ", /v1/decisions " + s);
        }
        check(v, decision, removed, failures, FIELD);
    }

    /**
     * One REST answer to a variant: 200, 400 (a wrong type, with a BadRequest Status) or 422 (causes with a
     * Kubernetes reason and a {@code field} path from the root); a 200 for a field nulled or retyped only when
     * leaving it out answers the same ({@code removed}: the answers to the REMOVE variants, by path).
     */
    static void check(Variant v, Answer decision, Map<String, Answer> removed, List<String> failures,
                      Pattern field) {
        int s = decision.status();
        if (s != 200 && s != 400 && s != 422) {
            failures.add(v + ": " + s + " " + decision.body());
            return;
        }
        if (s == 400 && v.change() == Change.REMOVE) {
            failures.add(v + ": 400 for a field left out " + decision.body());
        }
        if (s == 400 && !decision.body().contains("\"reason\":\"BadRequest\"")) {
            failures.add(v + ": 400 without a BadRequest Status " + decision.body());
        }
        if (s == 422) {
            if (decision.fields().isEmpty()) {
                failures.add(v + ": 422 without causes " + decision.body());
            }
            for (String f : decision.fields()) {
                if (f == null || !field.matcher(f).matches()) {
                    failures.add(v + ": a cause without a field path from the root: " + f);
                }
            }
            for (String reason : new io.restassured.path.json.JsonPath(decision.body())
                    .getList("details.causes.reason", String.class)) {
                if (!REASONS.contains(reason)) {
                    failures.add(v + ": cause reason " + reason);
                }
            }
        }
        if (s == 200 && v.change() != Change.REMOVE && !FREE_FORM.matcher(v.path()).matches()) {
            // null, or a value of another type, is accepted only where the field is not read: as if it were absent
            // (for a list's item, as if the list were)
            String changed = v.inList() ? v.path().substring(0, v.path().lastIndexOf('[')) : v.path();
            Answer without = removed.get(changed);
            if (without == null || without.status() != 200 || !without.body().equals(decision.body())) {
                failures.add(v + ": 200, but leaving " + changed + " out answers "
                        + (without == null ? "nothing" : without.status()));
            }
        }
    }

    /** gRPC agrees with REST wherever proto3 JSON carries the variant as REST reads it: OK for 200, same paths. */
    static void checkGrpc(Variant v, Answer rest, Answer grpc, List<String> failures) {
        if (v.change().retypes()) {
            return; // what proto3 JSON accepts of another type (a Struct, a repeated field) is not REST's reading
        }
        if ((grpc.status() == 200) != (rest.status() == 200)) {
            failures.add(v + ": gRPC " + (grpc.status() == 200 ? "OK" : "INVALID_ARGUMENT") + ", REST "
                    + rest.status());
        } else if (rest.status() == 422 && !new TreeSet<>(grpc.fields()).equals(new TreeSet<>(rest.fields()))) {
            failures.add(v + ": gRPC names " + grpc.fields() + ", REST " + rest.fields());
        }
    }
}
