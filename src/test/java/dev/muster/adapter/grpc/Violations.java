package dev.muster.adapter.grpc;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

import java.util.ArrayList;
import java.util.List;

/** Reads the google.rpc.BadRequest detail of an INVALID_ARGUMENT answer, as a client would. */
final class Violations {
    private Violations() {
    }

    static List<BadRequest.FieldViolation> of(StatusRuntimeException e) throws InvalidProtocolBufferException {
        com.google.rpc.Status status = StatusProto.fromThrowable(e);
        List<BadRequest.FieldViolation> out = new ArrayList<>();
        if (status == null) {
            return out;
        }
        for (Any detail : status.getDetailsList()) {
            if (detail.is(BadRequest.class)) {
                out.addAll(detail.unpack(BadRequest.class).getFieldViolationsList());
            }
        }
        return out;
    }

    static List<String> fields(StatusRuntimeException e) throws InvalidProtocolBufferException {
        List<String> out = new ArrayList<>();
        for (BadRequest.FieldViolation v : of(e)) {
            out.add(v.getField());
        }
        return out;
    }
}
