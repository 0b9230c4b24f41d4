#!/bin/sh
"/usr/lib/jvm/java-17-openjdk-amd64/bin/java" -cp "/root/.m2/repository/io/quarkus/quarkus-grpc-protoc-plugin/3.37.4/quarkus-grpc-protoc-plugin-3.37.4-shaded.jar" io.quarkus.grpc.protoc.plugin.MutinyGrpcGenerator
